"""One interface for both modes: `LocalBackend` runs the gateway in this process
on a data directory; against a server the `MemgateClient` itself is the backend
(same method names and return types), so commands are written once.

Local mode and a running `memgate serve` must not share a data directory: the
log's hash chain has one writer. With a server running, use `--url`.
"""

from __future__ import annotations

import builtins
import getpass
from collections.abc import Coroutine, Iterator
from contextlib import contextmanager
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any, Literal, Protocol

from memgate.bootstrap import open_sync_gateway
from memgate.cli.lock import data_dir_lock
from memgate.cli.options import Target
from memgate.client import MemgateClient
from memgate.client._calls import Namespace, labels
from memgate.client.models import ApiKey, BulkResult, CreatedKey, LogPage
from memgate.domain.events import Checkpoint, LogRecord, VerifyResult
from memgate.domain.graph import GraphRebuild, Investigation
from memgate.domain.memory import MemoryItem, MemoryWrite, Reader, utcnow
from memgate.domain.rollback import RollbackPlan, RollbackScope
from memgate.domain.types import Category, Source
from memgate.errors import NotFound, StorageError
from memgate.gateway import Gateway, SyncGateway
from memgate.gateway.core import WriteReceipt
from memgate.service.keys import KeyStoreBase
from memgate.service.keystores import open_keys
from memgate.service.settings import Settings
from memgate.trust import Policy

LOCAL_WAIT_SECONDS = 10.0
"""How long a local command waits for another local command to finish."""


class Backend(Protocol):
    """What the commands need; `MemgateClient` and `LocalBackend` both provide it."""

    def write(self, memory: MemoryWrite) -> WriteReceipt: ...
    def get(self, memory_id: str, *, reader: Reader | None = None) -> MemoryItem: ...
    def search(
        self,
        namespace_prefix: Namespace | None = None,
        query: str | None = None,
        *,
        metadata: dict[str, Any] | None = None,
        limit: int = 10,
        offset: int = 0,
        reader: Reader | None = None,
        mode: str = "text",
    ) -> builtins.list[MemoryItem]: ...
    def delete(self, memory_id: str, *, reason: str | None = None) -> MemoryItem: ...
    def history(self, memory_id: str) -> builtins.list[LogRecord]: ...
    def pending(
        self,
        *,
        namespace_prefix: Namespace | None = None,
        category: str | None = None,
        source: Source | str | None = None,
        older_than_seconds: float | None = None,
        limit: int = 50,
        offset: int = 0,
    ) -> builtins.list[MemoryItem]: ...
    def review_item(self, memory_id: str) -> MemoryItem: ...
    def approve(self, memory_id: str, *, note: str | None = None) -> MemoryItem: ...
    def reject(self, memory_id: str, *, reason: str) -> MemoryItem: ...
    def edit_and_approve(
        self, memory_id: str, content: str, *, note: str | None = None
    ) -> MemoryItem: ...
    def bulk(
        self, action: Literal["approve", "reject"], ids: builtins.list[str], *, reason: str | None
    ) -> builtins.list[BulkResult]: ...
    def rollback(
        self,
        *,
        to: int | datetime,
        reason: str,
        scope: RollbackScope | None = None,
        dry_run: bool = True,
    ) -> RollbackPlan: ...
    def log_page(self, *, after_seq: int = 0, limit: int = 100) -> LogPage: ...
    def verify(self, checkpoint: Checkpoint | None = None) -> VerifyResult: ...
    def checkpoint(self) -> Checkpoint: ...
    def readers(
        self, memory_id: str, since: datetime | None = None, until: datetime | None = None
    ) -> Investigation: ...
    def blast_radius(self, memory_id: str, depth: int = 3) -> Investigation: ...
    def provenance(self, memory_id: str) -> Investigation: ...
    def exposure(self, fingerprint: str) -> Investigation: ...
    def rebuild_graph(self) -> int: ...
    def rebuild_graph_report(self) -> GraphRebuild: ...
    def create_key(
        self,
        name: str,
        role: str,
        namespaces: builtins.list[Namespace] | None = None,
        *,
        sources: builtins.list[str] | None = None,
        user_channel: bool = False,
        guard_roles: builtins.list[str] | None = None,
    ) -> CreatedKey: ...
    def set_key_sources(
        self, key_id: str, sources: builtins.list[str] | None, *, user_channel: bool = False
    ) -> ApiKey: ...
    def set_key_guard_roles(self, key_id: str, guard_roles: builtins.list[str]) -> ApiKey: ...
    def list_keys(self) -> builtins.list[ApiKey]: ...
    def revoke_key(self, key_id: str) -> None: ...


def operator() -> str:
    """The actor recorded for local commands (review, rollback, delete)."""
    try:
        user = getpass.getuser()
    except (KeyError, OSError):
        user = "unknown"
    return f"cli:{user}"


def local_settings(data_dir: Path, store: str | None = None) -> Settings:
    """The service's settings for this data directory (graph and policy from
    MEMGATE_FALKORDB_URL / MEMGATE_GRAPH / MEMGATE_POLICY, the store from `store`
    or MEMGATE_STORE), so local commands see the store exactly as `memgate
    serve` would."""
    return Settings.from_env(data_dir=data_dir, store=store)


def _api_key(info: Any) -> ApiKey:
    return ApiKey.model_validate(info.model_dump(mode="json"))


class LocalBackend:
    """The gateway in this process, on a data directory. The gateway opens on first
    use, so key commands (which only need the key store) stay quick."""

    def __init__(self, data_dir: Path, settings: Settings, actor: str, *, graph: bool) -> None:
        self.data_dir = data_dir
        self.settings = settings
        self.actor = actor
        self._graph = graph
        self._sync: SyncGateway | None = None

    @classmethod
    def open(cls, data_dir: Path, *, graph: bool = False, store: str | None = None) -> LocalBackend:
        """A backend on the data directory; with `graph`, the gateway opens the
        provenance graph the settings name (embedded FalkorDB by default); with
        `store` (or MEMGATE_STORE), on that shared store."""
        return cls(data_dir, local_settings(data_dir, store), operator(), graph=graph)

    @property
    def sync(self) -> SyncGateway:
        if self._sync is None:
            kwargs: dict[str, Any] = {}
            if self.settings.policy_path is not None:
                kwargs["policy"] = Policy.load(self.settings.policy_path)
            # NOTE: commands that answer from the log alone open no graph (a start
            # costs a FalkorDB process); the graph catches up from the log later.
            kwargs["graph"] = self.settings.graph if self._graph else None
            if self.settings.store is not None:
                kwargs["store_url"] = self.settings.store
            try:
                self._sync = open_sync_gateway(self.data_dir, **kwargs)
            except OSError as exc:
                raise StorageError(f"cannot open data directory {self.data_dir}: {exc}") from None
        return self._sync

    @property
    def gateway(self) -> Gateway:
        return self.sync.gateway

    def _run[T](self, coro: Coroutine[Any, Any, T]) -> T:
        return self.sync.run(coro)

    def close(self) -> None:
        if self._sync is not None:
            self._sync.close()
            self._sync = None

    # -- memories --------------------------------------------------------------------

    def write(self, memory: MemoryWrite) -> WriteReceipt:
        return self._run(self.gateway.write(memory))

    def get(self, memory_id: str, *, reader: Reader | None = None) -> MemoryItem:
        item = self._run(self.gateway.read(memory_id, reader))
        if item is None:
            raise NotFound(f"no memory {memory_id} served to this reader")
        return item

    def search(
        self,
        namespace_prefix: Namespace | None = None,
        query: str | None = None,
        *,
        metadata: dict[str, Any] | None = None,
        limit: int = 10,
        offset: int = 0,
        reader: Reader | None = None,
        mode: str = "text",
    ) -> builtins.list[MemoryItem]:
        return self._run(
            self.gateway.search(
                labels(namespace_prefix),
                query,
                metadata=metadata,
                limit=limit,
                offset=offset,
                reader=reader,
                mode=mode,
            )
        )

    def delete(self, memory_id: str, *, reason: str | None = None) -> MemoryItem:
        return self._run(self.gateway.delete(memory_id, actor=self.actor, reason=reason))

    def history(self, memory_id: str) -> builtins.list[LogRecord]:
        return [*self._run(self.gateway.history(memory_id))]

    # -- review ----------------------------------------------------------------------

    def pending(
        self,
        *,
        namespace_prefix: Namespace | None = None,
        category: str | None = None,
        source: Source | str | None = None,
        older_than_seconds: float | None = None,
        limit: int = 50,
        offset: int = 0,
    ) -> builtins.list[MemoryItem]:
        older = (
            None if older_than_seconds is None else utcnow() - timedelta(seconds=older_than_seconds)
        )
        return [
            *self._run(
                self.gateway.pending(
                    namespace_prefix=labels(namespace_prefix),
                    category=Category(category) if category else None,
                    source=Source(source) if source else None,
                    older_than=older,
                    limit=limit,
                    offset=offset,
                )
            )
        ]

    def review_item(self, memory_id: str) -> MemoryItem:
        item = self._run(self.gateway.get_any(memory_id))
        if item is None:
            raise NotFound(f"no memory {memory_id}")
        return item

    def approve(self, memory_id: str, *, note: str | None = None) -> MemoryItem:
        return self._run(self.gateway.approve(memory_id, reviewer=self.actor, reason=note))

    def reject(self, memory_id: str, *, reason: str) -> MemoryItem:
        return self._run(self.gateway.reject(memory_id, reviewer=self.actor, reason=reason))

    def edit_and_approve(
        self, memory_id: str, content: str, *, note: str | None = None
    ) -> MemoryItem:
        return self._run(
            self.gateway.edit_and_approve(
                memory_id, reviewer=self.actor, new_content=content, reason=note
            )
        )

    def bulk(
        self, action: Literal["approve", "reject"], ids: builtins.list[str], *, reason: str | None
    ) -> builtins.list[BulkResult]:
        if action == "approve":
            done = self._run(self.gateway.approve_many(ids, reviewer=self.actor, reason=reason))
        else:
            done = self._run(
                self.gateway.reject_many(ids, reviewer=self.actor, reason=reason or "")
            )
        return [
            BulkResult(id=i, ok=False, error=r)
            if isinstance(r, str)
            else BulkResult(id=i, ok=True, state=r.state)
            for i, r in done.items()
        ]

    # -- incident --------------------------------------------------------------------

    def rollback(
        self,
        *,
        to: int | datetime,
        reason: str,
        scope: RollbackScope | None = None,
        dry_run: bool = True,
    ) -> RollbackPlan:
        return self._run(
            self.gateway.rollback(
                to=to, reason=reason, actor=self.actor, scope=scope, dry_run=dry_run
            )
        )

    def log_page(self, *, after_seq: int = 0, limit: int = 100) -> LogPage:
        records = self._run(self.gateway.store.records(after_seq, limit))
        full = len(records) >= limit
        return LogPage(records=tuple(records), next_after_seq=records[-1].seq if full else None)

    def verify(self, checkpoint: Checkpoint | None = None) -> VerifyResult:
        return self._run(self.gateway.verify(checkpoint))

    def checkpoint(self) -> Checkpoint:
        return self._run(self.gateway.checkpoint())

    def readers(
        self, memory_id: str, since: datetime | None = None, until: datetime | None = None
    ) -> Investigation:
        return self._run(self.gateway.readers(memory_id, since=since, until=until))

    def blast_radius(self, memory_id: str, depth: int = 3) -> Investigation:
        return self._run(self.gateway.blast_radius(memory_id, depth=depth))

    def provenance(self, memory_id: str) -> Investigation:
        return self._run(self.gateway.provenance(memory_id))

    def exposure(self, fingerprint: str) -> Investigation:
        return self._run(self.gateway.exposure(fingerprint))

    def rebuild_graph(self) -> int:
        return self._run(self.gateway.rebuild_graph())

    def rebuild_graph_report(self) -> GraphRebuild:
        events = self._run(self.gateway.rebuild_graph())
        status = self._run(self.gateway.projection_status())
        return GraphRebuild(
            events=events, set_aside=status.set_aside, set_aside_rows=status.set_aside_rows
        )

    # -- keys ------------------------------------------------------------------------

    @contextmanager
    def _keys(self) -> Iterator[KeyStoreBase]:
        with open_keys(self.settings.keys_path, self.settings.store) as store:
            yield store

    def create_key(
        self,
        name: str,
        role: str,
        namespaces: builtins.list[Namespace] | None = None,
        *,
        sources: builtins.list[str] | None = None,
        user_channel: bool = False,
        guard_roles: builtins.list[str] | None = None,
    ) -> CreatedKey:
        with self._keys() as store:
            info, raw = store.create(
                name,
                role,
                [labels(n) for n in namespaces or []],
                sources=sources,
                user_channel=user_channel,
                guard_roles=guard_roles,
            )
        return CreatedKey(info=_api_key(info), key=raw)

    def set_key_sources(
        self, key_id: str, sources: builtins.list[str] | None, *, user_channel: bool = False
    ) -> ApiKey:
        with self._keys() as store:
            return _api_key(store.set_sources(key_id, sources, user_channel=user_channel))

    def set_key_guard_roles(self, key_id: str, guard_roles: builtins.list[str]) -> ApiKey:
        with self._keys() as store:
            return _api_key(store.set_guard_roles(key_id, guard_roles))

    def list_keys(self) -> builtins.list[ApiKey]:
        with self._keys() as store:
            return [_api_key(info) for info in store.list()]

    def revoke_key(self, key_id: str) -> None:
        with self._keys() as store:
            store.revoke(key_id)


@contextmanager
def backend(target: Target, *, graph: bool = False) -> Iterator[Backend]:
    """The backend for a command: the server at `target.url`, else the gateway on
    `target.data_dir` (with the graph when the command needs it)."""
    if target.url is not None:
        client = MemgateClient(target.url, key=target.key)
        try:
            yield client
        finally:
            client.close()
        return
    with data_dir_lock(target.data_dir, what="a memgate command", wait=LOCAL_WAIT_SECONDS):
        local = open_local(target.data_dir, graph=graph, store=target.store)
        try:
            yield local
        finally:
            local.close()


def open_local(data_dir: Path, *, graph: bool = False, store: str | None = None) -> LocalBackend:
    return LocalBackend.open(data_dir, graph=graph, store=store)
