"""The one error tree of memgate.

    MemgateError
    ├── RulesError          a rules file is malformed (bad TOML, unknown field, bad regex)
    ├── PolicyError         a policy file is malformed
    ├── IllegalTransition   a memory state change the state machine does not allow
    ├── InvalidInput        an identifier or metadata outside domain.limits (names the field)
    ├── WriteRefused        a write the gateway will not take (e.g. OversizedWrite)
    │   ├── OversizedWrite  larger than the policy's max_bytes; never truncated
    │   └── WriteForbidden  the writer may not do this (another writer's memory; names the field)
    ├── NotFound            no memory with that id (or not visible to the caller)
    ├── ReviewRefused       a review action that is not allowed (own write, no reason)
    ├── RollbackInProgress  a rollback holds the write lock; retry after `retry_after`
    ├── KeyFileError        a key file exists but is unusable
    ├── StorageError        the store failed; the write was not acknowledged
    ├── GraphUnavailable    the provenance graph cannot answer (down, disabled, error)
    └── RecallUnavailable   vector / hybrid search cannot answer (no embedder, extra missing)

The scanner itself never raises on content: any input yields a ScanReport.
"""


class MemgateError(Exception):
    """Base of every error memgate raises on purpose."""


class RulesError(MemgateError):
    """A rules file could not be loaded; the message names the file and rule."""


class PolicyError(MemgateError):
    """A policy file could not be loaded; the message names the file and field."""


class IllegalTransition(MemgateError):
    """A memory was asked to move along an edge the state machine does not have."""

    def __init__(self, memory_id: str, before: object, after: object) -> None:
        super().__init__(f"memory {memory_id}: illegal transition {before} -> {after}")
        self.memory_id = memory_id
        self.before = before
        self.after = after


class InvalidInput(MemgateError, ValueError):
    """An identifier (namespace label, key, session / call / agent id, metadata key),
    metadata or a filter outside the bounds of `memgate.domain.limits`. Names the
    field; never quotes the value (it may hold anything)."""

    def __init__(self, field: str, reason: str) -> None:
        super().__init__(f"{field}: {reason}")
        self.field = field
        self.reason = reason


class WriteRefused(MemgateError):
    """The gateway refused a write; nothing was stored."""


class WriteForbidden(WriteRefused):
    """The writer may not make this write: its key replaces only memories that key
    wrote (unless the namespace grants shared write), or declares a source its key
    does not carry. Names the field; nothing was stored."""

    def __init__(self, field: str, reason: str) -> None:
        super().__init__(f"{field}: {reason}")
        self.field = field
        self.reason = reason


class OversizedWrite(WriteRefused):
    def __init__(self, size: int, limit: int) -> None:
        super().__init__(f"write of {size} bytes exceeds the limit of {limit} bytes")
        self.size = size
        self.limit = limit


class NotFound(MemgateError):
    """No memory with that id, or not visible to the caller."""


class ReviewRefused(MemgateError):
    """A review action that policy forbids (approving your own write, no reason)."""


class KeyFileError(MemgateError):
    """A key file exists but is unusable."""


class StorageError(MemgateError):
    """The store failed; the write was not acknowledged."""


class RollbackInProgress(MemgateError):
    """A rollback holds the write lock; the write was not taken. Retry later."""

    def __init__(self, retry_after: float) -> None:
        super().__init__(f"a rollback is in progress; retry in {retry_after:g} s")
        self.retry_after = retry_after


class GraphUnavailable(MemgateError):
    """The provenance graph cannot answer. Investigations report it as their status;
    writes and reads never fail because of it (the graph is a projection)."""


class RecallUnavailable(MemgateError):
    """Vector or hybrid search cannot answer: semantic recall is off, its extra
    (`memgate-customs[recall]`) is not installed, or the embedder failed. Text
    search is unaffected. The message says which and what to do."""
