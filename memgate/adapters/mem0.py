"""mem0 behind memgate: `GuardedMemory` wraps a `mem0.Memory`.

    from mem0 import Memory  # type: ignore[import-untyped]
    from memgate.adapters.mem0 import GuardedMemory
    memory = GuardedMemory.open(Memory.from_config(config), Path("data"))
    memory.add("I prefer metric units", user_id="alice", infer=False)
    memory.search("units", filters={"user_id": "alice"})

What changes against plain mem0:

- `add` writes every message to memgate first, one memory per message, under
  `("mem0", "user:<id>", "agent:<id>", "run:<id>")` (the ids given), with the
  message's role as its source (`user` / `system` -> user, `assistant` -> agent,
  `tool` -> tool; `source=` overrides). Only the messages memgate approves reach
  mem0, with secrets and personal data already redacted; pending and rejected
  ones stay out of mem0 (its vector store, its history database and its LLM).
  `infer=False` stores each approved message as one mem0 memory; `infer=True`
  hands the approved messages to mem0's LLM, and every fact it extracts carries
  the ids of the messages it came from. The result is mem0's, plus a `memgate`
  list with each message's state, trust score and rules.
- `search`, `get` and `get_all` return a mem0 memory only while memgate serves
  every message it came from to this reader; each check is a read in memgate's
  log of reads and its provenance graph (`session_id` / `call_id` name the
  reader; `agent_id` of the wrapper names the agent). So a rollback, a delete or
  a rejection in memgate hides the memory at once.
- `sync()` follows memgate's log: a message a reviewer approved enters mem0 (as
  it was added: with or without inference), memories of messages that are no
  longer served are deleted from mem0. Run it after reviews (a periodic job, or
  the review UI's hook); against a server it needs an admin key (it reads
  `GET /v1/log`).
- `update` sends the new text through memgate first; approved, mem0's memory
  takes it (and the replaced message is tombstoned); held, mem0 keeps the old
  text until a reviewer approves and `sync()` runs; rejected, it keeps it.
- `delete` tombstones the memgate message of a stored message too; deleting an
  extracted fact only removes it from mem0 (its messages stay in memgate).

mem0 sends usage telemetry unless `MEM0_TELEMETRY=False` is set before it is
imported; memgate does not change that setting for you.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from memgate.adapters._backend import (
    Backend,
    LoopThread,
    MemoryHeld,
    RemoteBackend,
    running_loop,
)
from memgate.adapters._guard import ID_KEY, Guard, SyncReport
from memgate.domain.memory import MemoryItem, MemoryWrite, Reader, Target
from memgate.domain.types import Source
from memgate.gateway import SyncGateway

if TYPE_CHECKING:
    from mem0 import Memory  # type: ignore[import-untyped]

__all__ = ["IDS_KEY", "GuardedMemory", "SyncReport"]

IDS_KEY = "memgate_ids"
"""mem0 metadata of an extracted fact: the memgate messages it came from."""
SCOPE_KEY = "mem0_scope"
INFER_KEY = "mem0_infer"
METADATA_KEY = "mem0_metadata"
ROLE_KEY = "mem0_role"
REPLACES_KEY = "mem0_replaces"
"""memgate metadata of an update: the mem0 memory it replaces once approved."""
_SCOPES = ("user_id", "agent_id", "run_id")
_LIST_ALL = 1000


def _label(text: str) -> str:
    return text.replace("%", "%25").replace("/", "%2F")


def source_of(role: str) -> Source:
    if role in ("user", "system", "developer"):
        return Source.USER
    if role == "tool":
        return Source.TOOL
    return Source.AGENT


def _messages(messages: Any) -> list[dict[str, Any]]:
    """mem0's message forms (a string, a dict, a list of dicts) as a list."""
    if isinstance(messages, str):
        return [{"role": "user", "content": messages}]
    if isinstance(messages, Mapping):
        return [dict(messages)]
    if isinstance(messages, list) and all(isinstance(m, Mapping) for m in messages):
        return [dict(m) for m in messages]
    raise TypeError("messages must be str, dict, or list[dict]")


def _wider(top_k: Any) -> Any:
    """Ask mem0 for more than wanted (some hits may no longer be served); a bad
    value goes through as given, for mem0 to refuse."""
    return top_k * 2 if isinstance(top_k, int) and not isinstance(top_k, bool) else top_k


def _ids_of(hit: Mapping[str, Any]) -> list[str]:
    """The memgate messages a mem0 memory came from ([] for one memgate never saw)."""
    metadata = hit.get("metadata") or {}
    one = metadata.get(ID_KEY)
    if isinstance(one, str):
        return [one]
    many = metadata.get(IDS_KEY)
    if isinstance(many, list) and all(isinstance(i, str) for i in many):
        return list(many)
    return []


class GuardedMemory:
    """A mem0 `Memory` whose adds pass memgate's gate and whose reads are checked
    against it (and recorded)."""

    def __init__(
        self,
        memory: Memory,
        backend: Backend,
        *,
        prefix: tuple[str, ...] = ("mem0",),
        source: Source | None = None,
        agent_id: str | None = None,
        session_id: str | None = None,
        strict: bool = False,
        loop: asyncio.AbstractEventLoop | None = None,
    ) -> None:
        """`backend`: a Gateway or RemoteBackend on `loop` (mem0 is synchronous, so
        the backend needs its own loop thread: use `open`, `from_sync` or `connect`).
        `source` fixes every message's source (default: by role). `strict` raises
        `MemoryHeld` when a message is held or rejected (after the others ran)."""
        self.memory = memory
        self.prefix = tuple(prefix)
        self.source = source
        self.agent_id = agent_id
        self.session_id = session_id
        self.strict = strict
        self.guard = Guard(backend, store="mem0", loop=loop)
        self.gateway: SyncGateway | None = None
        """The SyncGateway given to `from_sync` / opened by `open` (review, rollback)."""
        self._closer: Callable[[], None] | None = None

    # -- construction ---------------------------------------------------------------

    @classmethod
    def from_sync(cls, memory: Memory, gateway: SyncGateway, **kwargs: Any) -> GuardedMemory:
        """Use a SyncGateway (the gateway on its own loop thread)."""
        guarded = cls(memory, gateway.gateway, loop=gateway.run(running_loop()), **kwargs)
        guarded.gateway = gateway
        return guarded

    @classmethod
    def open(cls, memory: Memory, data_dir: Path, **kwargs: Any) -> GuardedMemory:
        """memgate in-process on a data directory (with its provenance graph);
        `close()` when done."""
        from memgate.bootstrap import open_sync_gateway

        gateway = open_sync_gateway(Path(data_dir), graph="embedded")
        guarded = cls.from_sync(memory, gateway, **kwargs)
        guarded._closer = gateway.close
        return guarded

    @classmethod
    def connect(
        cls, memory: Memory, url: str, key: str | None = None, **kwargs: Any
    ) -> GuardedMemory:
        """A memgate server; `close()` when done."""
        thread = LoopThread()
        backend = RemoteBackend.connect(url, key)
        guarded = cls(memory, backend, loop=thread.loop, **kwargs)

        def close() -> None:
            thread.run(backend.close())
            thread.stop()

        guarded._closer = close
        return guarded

    def close(self) -> None:
        """Close what `open` / `connect` opened (not the mem0 Memory)."""
        if self._closer is not None:
            self._closer()
            self._closer = None

    @property
    def backend(self) -> Backend:
        return self.guard.backend

    # -- helpers --------------------------------------------------------------------

    def _namespace(self, scope: Mapping[str, Any]) -> tuple[str, ...]:
        labels = [
            f"{name.split('_')[0]}:{_label(str(scope[name]))}"
            for name in _SCOPES
            if scope.get(name)
        ]
        if not labels:
            raise ValueError("at least one of user_id, agent_id, run_id is required")
        return (*self.prefix, *labels)

    def _reader(self, session_id: str | None, call_id: str | None) -> Reader:
        return Reader(
            session_id=session_id or self.session_id, call_id=call_id, agent_id=self.agent_id
        )

    # -- add ------------------------------------------------------------------------

    def add(
        self,
        messages: Any,
        *,
        user_id: str | None = None,
        agent_id: str | None = None,
        run_id: str | None = None,
        metadata: dict[str, Any] | None = None,
        infer: bool = True,
        session_id: str | None = None,
        call_id: str | None = None,
        **kwargs: Any,
    ) -> dict[str, Any]:
        """mem0's `add`, each message through memgate first (see the module doc).
        `session_id` / `call_id` record who wrote (default: `run_id` as session)."""
        scope = {"user_id": user_id, "agent_id": agent_id, "run_id": run_id}
        scope = {k: v for k, v in scope.items() if v}
        namespace = self._namespace(scope)
        session = session_id or self.session_id or run_id
        reader = self._reader(session, call_id)
        entries = _messages(messages)
        admitted = []
        for entry in entries:
            role = str(entry.get("role") or "user")
            content = entry.get("content")
            if not isinstance(content, str) or not content.strip():
                continue  # mem0 skips these too
            write = MemoryWrite(
                content=content,
                namespace=namespace,
                source=self.source or source_of(role),
                session_id=session,
                agent_id=self.agent_id,
                call_id=call_id,
                metadata={
                    SCOPE_KEY: scope,
                    INFER_KEY: infer,
                    ROLE_KEY: role,
                    **({METADATA_KEY: metadata} if metadata else {}),
                },
                target=Target.LONG,
            )
            admitted.append((role, entry, self.guard.run(self.guard.admit(write, reader))))
        results: list[dict[str, Any]] = []
        served = [(role, entry, a.item) for role, entry, a in admitted if a.item is not None]
        if served:
            results = self._store(served, scope, metadata, infer, kwargs)
        report = [{"role": role, **a.status.model_dump(mode="json")} for role, _, a in admitted]
        if self.strict:
            held = [a for _, _, a in admitted if a.item is None]
            if held:
                raise MemoryHeld(held[0].receipt)
        return {"results": results, "memgate": report}

    def _store(
        self,
        served: list[tuple[str, dict[str, Any], MemoryItem]],
        scope: Mapping[str, Any],
        metadata: Mapping[str, Any] | None,
        infer: bool,
        kwargs: Mapping[str, Any],
    ) -> list[dict[str, Any]]:
        """Hand approved (redacted) messages to mem0, tagged with their memgate ids."""
        base = dict(metadata or {})
        if not infer:
            out: list[dict[str, Any]] = []
            for role, entry, item in served:
                message = {**entry, "role": role, "content": item.content}
                done = self.memory.add(
                    [message], **scope, metadata={**base, ID_KEY: item.id}, infer=False, **kwargs
                )
                out.extend(done.get("results", []))
            return out
        messages = [
            {**entry, "role": role, "content": item.content} for role, entry, item in served
        ]
        ids = [item.id for _, _, item in served]
        done = self.memory.add(
            messages, **scope, metadata={**base, IDS_KEY: ids}, infer=True, **kwargs
        )
        return list(done.get("results", []))

    # -- reads ----------------------------------------------------------------------

    async def _check(
        self, hits: list[dict[str, Any]], reader: Reader, limit: int | None
    ) -> list[dict[str, Any]]:
        """The hits memgate still serves (each check a recorded read), in order, up to
        `limit`; a stored message comes back with memgate's content."""
        seen: dict[str, MemoryItem | None] = {}
        out: list[dict[str, Any]] = []
        for hit in hits:
            if limit is not None and len(out) >= limit:
                break
            ids = _ids_of(hit)
            if not ids:
                continue  # never passed the gate
            items = []
            for memory_id in ids:
                if memory_id not in seen:
                    seen[memory_id] = await self.guard.served(memory_id, reader)
                items.append(seen[memory_id])
            if any(i is None for i in items):
                continue
            shown = dict(hit)
            if (hit.get("metadata") or {}).get(ID_KEY) and items[0] is not None:
                shown["memory"] = items[0].content
            shown["memgate"] = [
                {"id": i.id, "state": i.state.value, "trust_score": i.trust_score}
                for i in items
                if i is not None
            ]
            out.append(shown)
        return out

    def search(
        self,
        query: str,
        *,
        top_k: int = 20,
        filters: dict[str, Any] | None = None,
        session_id: str | None = None,
        call_id: str | None = None,
        **kwargs: Any,
    ) -> dict[str, Any]:
        """mem0's `search`, keeping only what memgate serves this reader (recorded)."""
        found = self.memory.search(query, top_k=_wider(top_k), filters=filters, **kwargs)
        reader = self._reader(session_id, call_id)
        hits = list(found.get("results", []))
        return {**found, "results": self.guard.run(self._check(hits, reader, top_k))}

    def get(
        self, memory_id: str, *, session_id: str | None = None, call_id: str | None = None
    ) -> dict[str, Any] | None:
        hit = self.memory.get(memory_id)
        if hit is None:
            return None
        kept = self.guard.run(self._check([hit], self._reader(session_id, call_id), 1))
        return kept[0] if kept else None

    def get_all(
        self,
        *,
        filters: dict[str, Any] | None = None,
        top_k: int = 20,
        session_id: str | None = None,
        call_id: str | None = None,
        **kwargs: Any,
    ) -> dict[str, Any]:
        found = self.memory.get_all(filters=filters, top_k=_wider(top_k), **kwargs)
        reader = self._reader(session_id, call_id)
        hits = list(found.get("results", []))
        return {**found, "results": self.guard.run(self._check(hits, reader, top_k))}

    # -- updates --------------------------------------------------------------------

    def update(
        self,
        memory_id: str,
        text: str,
        *,
        metadata: dict[str, Any] | None = None,
        session_id: str | None = None,
        call_id: str | None = None,
    ) -> dict[str, Any]:
        """mem0's `update`, the new text through memgate first (a new message under
        the memory's scope and role). Approved: mem0's memory takes memgate's text
        and the replaced message is tombstoned. Held: mem0 keeps the old text until
        a reviewer approves and `sync()` runs; rejected: it keeps the old text."""
        hit = self.memory.get(memory_id)
        if hit is None:
            raise ValueError(f"Memory with id {memory_id} not found")
        scope = {k: str(hit[k]) for k in _SCOPES if hit.get(k)}
        role = str(hit.get("role") or "user")
        session = session_id or self.session_id or scope.get("run_id")
        write = MemoryWrite(
            content=text,
            namespace=self._namespace(scope),
            source=self.source or source_of(role),
            session_id=session,
            agent_id=self.agent_id,
            call_id=call_id,
            metadata={
                SCOPE_KEY: scope,
                INFER_KEY: False,
                ROLE_KEY: role,
                REPLACES_KEY: memory_id,
                **({METADATA_KEY: metadata} if metadata else {}),
            },
            target=Target.LONG,
        )
        admitted = self.guard.run(self.guard.admit(write, self._reader(session, call_id)))
        status = admitted.status.model_dump(mode="json")
        if admitted.item is None:
            if self.strict:
                raise MemoryHeld(admitted.receipt)
            return {"message": f"update {status['state']}", "memgate": status}
        self._replace(hit, admitted.item, metadata)
        return {"message": "Memory updated successfully!", "memgate": status}

    def _replace(
        self, hit: Mapping[str, Any], item: MemoryItem, metadata: Mapping[str, Any] | None
    ) -> None:
        """mem0's memory `hit` takes the approved message `item`; the message it held
        before (if one) is tombstoned."""
        tags: dict[str, Any] = {**(metadata or {}), ID_KEY: item.id}
        if IDS_KEY in (hit.get("metadata") or {}):
            tags[IDS_KEY] = [item.id]
        self.memory.update(str(hit["id"]), text=item.content, metadata=tags)
        for old in _ids_of(hit):
            if old != item.id and ((hit.get("metadata") or {}).get(ID_KEY) == old):
                self.guard.run(self.guard.tombstone(old, actor=self._actor(), reason="mem0 update"))

    # -- deletes --------------------------------------------------------------------

    def delete(self, memory_id: str) -> dict[str, Any]:
        """Delete from mem0; a stored message is tombstoned in memgate too."""
        hit = self.memory.get(memory_id)
        one = ((hit or {}).get("metadata") or {}).get(ID_KEY)
        if isinstance(one, str):
            self.guard.run(self.guard.tombstone(one, actor=self._actor(), reason="mem0 delete"))
        return dict(self.memory.delete(memory_id))

    def delete_all(
        self, user_id: str | None = None, agent_id: str | None = None, run_id: str | None = None
    ) -> dict[str, Any]:
        """Delete a scope from mem0; its stored messages are tombstoned in memgate."""
        filters = {
            k: v for k, v in (("user_id", user_id), ("agent_id", agent_id), ("run_id", run_id)) if v
        }
        for hit in self._all(filters):
            one = (hit.get("metadata") or {}).get(ID_KEY)
            if isinstance(one, str):
                self.guard.run(
                    self.guard.tombstone(one, actor=self._actor(), reason="mem0 delete_all")
                )
        return dict(self.memory.delete_all(user_id=user_id, agent_id=agent_id, run_id=run_id))

    def _actor(self) -> str:
        return self.agent_id or self.session_id or "mem0"

    def _all(self, filters: dict[str, Any]) -> list[dict[str, Any]]:
        """Every mem0 memory of a scope, unchecked (for sync and deletes)."""
        if not filters:
            return []
        return list(self.memory.get_all(filters=filters, top_k=_LIST_ALL).get("results", []))

    # -- sync -----------------------------------------------------------------------

    def sync(self) -> SyncReport:
        """Apply memgate's log since the last sync to mem0: approved messages enter,
        messages no longer served leave (with the facts extracted from them)."""
        changed, last = self.guard.run(self.guard.changes())
        report = SyncReport(last_seq=last)
        by_scope: dict[tuple[tuple[str, str], ...], list[dict[str, Any]]] = {}
        for change in changed:
            item = change.item
            scope = item.metadata.get(SCOPE_KEY)
            if not isinstance(scope, dict) or not (change.enters or change.leaves):
                continue
            scope = {k: str(v) for k, v in scope.items() if k in _SCOPES and v}
            frozen = tuple(sorted(scope.items()))
            if frozen not in by_scope:
                by_scope[frozen] = self._all(scope)
            present = [h for h in by_scope[frozen] if item.id in _ids_of(h)]
            replaces = item.metadata.get(REPLACES_KEY)
            if change.enters and not present and isinstance(replaces, str):
                target = self.memory.get(replaces)
                if target is not None:
                    extra = item.metadata.get(METADATA_KEY)
                    self._replace(target, item, extra if isinstance(extra, dict) else None)
                    by_scope[frozen] = self._all(scope)
                    report.added.append(item.id)
                    continue
            if change.enters and not present:
                role = str(item.metadata.get(ROLE_KEY) or "user")
                extra = item.metadata.get(METADATA_KEY)
                results = self._store(
                    [(role, {"role": role}, item)],
                    scope,
                    extra if isinstance(extra, dict) else None,
                    bool(item.metadata.get(INFER_KEY)),
                    {},
                )
                by_scope[frozen].extend(
                    {"id": r.get("id"), "metadata": {ID_KEY: item.id}} for r in results
                )
                report.added.append(item.id)
            elif change.leaves and present:
                for hit in present:
                    with contextlib.suppress(ValueError):  # gone meanwhile
                        self.memory.delete(str(hit["id"]))
                by_scope[frozen] = [h for h in by_scope[frozen] if h not in present]
                report.removed.append(item.id)
        self.guard.cursor = last
        return report
