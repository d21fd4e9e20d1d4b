"""`MemgateClient`: the blocking client for a memgate server.

    with MemgateClient("http://127.0.0.1:8700", key=os.environ["MEMGATE_KEY"]) as mg:
        receipt = mg.write(MemoryWrite(content="I prefer tea.", namespace=("acme", "u1")))
        mg.search("acme", "tea", reader=Reader(session_id="s2"))

Method names follow the Gateway's, so code can move between in-process and
remote use; the acting identity (reviewer, rollback actor) is the API key.
"""

from __future__ import annotations

import builtins
from datetime import datetime
from typing import Any, Literal

import httpx

from memgate.client import _calls as calls
from memgate.client._base import DEFAULT_TIMEOUT, auth_headers, finish, pick_reader
from memgate.client._calls import Call, Namespace
from memgate.client.errors import RemoteNotFound, transport_error
from memgate.client.models import ApiKey, BulkResult, CreatedKey, LogPage, Page
from memgate.domain.events import Checkpoint, LogRecord, VerifyResult
from memgate.domain.graph import GraphRebuild, Investigation
from memgate.domain.memory import MemoryItem, MemoryWrite, Reader
from memgate.domain.rollback import RollbackPlan, RollbackScope
from memgate.domain.types import Source
from memgate.gateway.core import WriteReceipt


class MemgateClient:
    """Blocking HTTP client. `transport` lets tests or embedders route requests
    elsewhere (e.g. `httpx.MockTransport`); `reader` is the default reader
    identity recorded with every read that does not pass its own."""

    def __init__(
        self,
        url: str,
        *,
        key: str | None = None,
        timeout: float = DEFAULT_TIMEOUT,
        reader: Reader | None = None,
        transport: httpx.BaseTransport | None = None,
    ) -> None:
        self.url = url.rstrip("/")
        self.reader = reader
        self._http = httpx.Client(
            base_url=self.url, headers=auth_headers(key), timeout=timeout, transport=transport
        )

    def _send[T](self, call: Call[T]) -> T:
        try:
            response = self._http.request(
                call.method,
                call.path,
                params=call.params or None,
                json=call.body,
                headers=call.headers,
            )
        except httpx.HTTPError as exc:
            raise transport_error(self.url, exc) from None
        return finish(call, response)

    def close(self) -> None:
        self._http.close()

    def __enter__(self) -> MemgateClient:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- memories --------------------------------------------------------------------

    def write(self, memory: MemoryWrite) -> WriteReceipt:
        return self._send(calls.write(memory))

    def get(self, memory_id: str, *, reader: Reader | None = None) -> MemoryItem:
        """The memory if served to this reader; raises NotFound otherwise."""
        return self._send(calls.get(memory_id, pick_reader(reader, self.reader)))

    def read(self, memory_id: str, reader: Reader | None = None) -> MemoryItem | None:
        """Like `Gateway.read`: None when not served to this reader."""
        try:
            return self.get(memory_id, reader=reader)
        except RemoteNotFound:
            return None

    def by_key(self, namespace: Namespace, key: str, *, reader: Reader | None = None) -> MemoryItem:
        return self._send(calls.by_key(namespace, key, pick_reader(reader, self.reader)))

    def read_key(
        self, namespace: Namespace, key: str, reader: Reader | None = None
    ) -> MemoryItem | None:
        try:
            return self.by_key(namespace, key, reader=reader)
        except RemoteNotFound:
            return None

    def list_page(
        self,
        namespace_prefix: Namespace | None = None,
        *,
        limit: int = 50,
        offset: int = 0,
        reader: Reader | None = None,
    ) -> Page:
        return self._send(
            calls.list_page(namespace_prefix, limit, offset, pick_reader(reader, self.reader))
        )

    def list(
        self,
        namespace_prefix: Namespace | None = None,
        *,
        limit: int = 50,
        offset: int = 0,
        reader: Reader | None = None,
    ) -> builtins.list[MemoryItem]:
        page = self.list_page(namespace_prefix, limit=limit, offset=offset, reader=reader)
        return [*page.items]

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
        """Served memories under the prefix; `mode` is `text` (every word occurs),
        `vector` (semantic) or `hybrid` (both, fused by rank)."""
        return self._send(
            calls.search(
                namespace_prefix,
                query,
                metadata,
                limit,
                offset,
                pick_reader(reader, self.reader),
                mode,
            )
        )

    def delete(self, memory_id: str, *, reason: str | None = None) -> MemoryItem:
        return self._send(calls.delete(memory_id, reason))

    def history(self, memory_id: str) -> builtins.list[LogRecord]:
        return self._send(calls.history(memory_id))

    def scan(self, content: str, source: Source | str | None = None) -> dict[str, Any]:
        """The scan report for `content`; nothing is stored."""
        return self._send(calls.scan(content, source))

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
        return self._send(
            calls.pending(namespace_prefix, category, source, older_than_seconds, limit, offset)
        )

    def review_item(self, memory_id: str) -> MemoryItem:
        """The memory in any state (reviewer / admin keys)."""
        return self._send(calls.review_item(memory_id))

    def approve(self, memory_id: str, *, note: str | None = None) -> MemoryItem:
        return self._send(calls.approve(memory_id, note))

    def reject(self, memory_id: str, *, reason: str) -> MemoryItem:
        return self._send(calls.reject(memory_id, reason))

    def edit_and_approve(
        self, memory_id: str, content: str, *, note: str | None = None
    ) -> MemoryItem:
        return self._send(calls.edit(memory_id, content, note))

    def bulk(
        self,
        action: Literal["approve", "reject"],
        ids: builtins.list[str],
        *,
        reason: str | None = None,
    ) -> builtins.list[BulkResult]:
        return self._send(calls.bulk(action, ids, reason))

    # -- incident --------------------------------------------------------------------

    def rollback(
        self,
        *,
        to: int | datetime,
        reason: str,
        scope: RollbackScope | None = None,
        dry_run: bool = True,
    ) -> RollbackPlan:
        return self._send(calls.rollback(to, reason, scope, dry_run))

    def log_page(self, *, after_seq: int = 0, limit: int = 100) -> LogPage:
        return self._send(calls.log_page(after_seq, limit))

    def verify(self, checkpoint: Checkpoint | None = None) -> VerifyResult:
        return self._send(calls.verify(checkpoint))

    def checkpoint(self) -> Checkpoint:
        return self._send(calls.checkpoint())

    def readers(
        self, memory_id: str, since: datetime | None = None, until: datetime | None = None
    ) -> Investigation:
        return self._send(calls.readers(memory_id, since, until))

    def blast_radius(self, memory_id: str, depth: int = 3) -> Investigation:
        return self._send(calls.blast_radius(memory_id, depth))

    def provenance(self, memory_id: str) -> Investigation:
        return self._send(calls.provenance(memory_id))

    def exposure(self, fingerprint: str) -> Investigation:
        return self._send(calls.exposure(fingerprint))

    def rebuild_graph(self) -> int:
        """Drop the server's graph and project it again from SQLite; returns the
        events projected (admin)."""
        return self._send(calls.rebuild_graph())

    def rebuild_graph_report(self) -> GraphRebuild:
        """Like `rebuild_graph`, with the rows the graph could not take and the
        rebuild skipped (ids and reasons) (admin)."""
        return self._send(calls.rebuild_graph_report())

    # -- keys and health ---------------------------------------------------------------

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
        """A new key (admin). `sources`: what its writes may declare (default: the
        role's); `user_channel`: it may also declare `user`."""
        return self._send(
            calls.create_key(name, role, namespaces or [], sources, user_channel, guard_roles)
        )

    def set_key_sources(
        self, key_id: str, sources: builtins.list[str] | None, *, user_channel: bool = False
    ) -> ApiKey:
        """Replace the sources a key may declare (admin; None: its role's default)."""
        return self._send(calls.set_key_sources(key_id, sources, user_channel))

    def set_key_guard_roles(self, key_id: str, guard_roles: builtins.list[str]) -> ApiKey:
        """Replace the guard roles a key may act as (admin; empty: none, so the guard
        policy's default role)."""
        return self._send(calls.set_key_guard_roles(key_id, guard_roles))

    def list_keys(self) -> builtins.list[ApiKey]:
        return self._send(calls.list_keys())

    def my_key(self) -> ApiKey:
        """The key this client sends (any role): its role, scopes and sources."""
        return self._send(calls.my_key())

    def revoke_key(self, key_id: str) -> None:
        self._send(calls.revoke_key(key_id))

    def health(self) -> dict[str, Any]:
        return self._send(calls.health("/healthz"))

    def ready(self) -> dict[str, Any]:
        return self._send(calls.health("/readyz"))
