"""The one error tree of memgate.

    MemgateError
    ├── RulesError          a rules file is malformed (bad TOML, unknown field, bad regex)
    ├── PolicyError         a policy file is malformed
    └── IllegalTransition   a memory state change the state machine does not allow

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
