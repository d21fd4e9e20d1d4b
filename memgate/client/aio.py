"""`AsyncMemgateClient`: the asyncio client for a memgate server.

    async with AsyncMemgateClient("http://127.0.0.1:8700", key=os.environ["MEMGATE_KEY"]) as mg:
        receipt = await mg.write(MemoryWrite(content="I prefer tea.", namespace=("acme", "u1")))
        await mg.search("acme", "tea", reader=Reader(session_id="s2"))

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


class AsyncMemgateClient:
    """Asyncio HTTP client. `transport` lets tests or embedders route requests
    elsewhere (e.g. `httpx.MockTransport`); `reader` is the default reader
    identity recorded with every read that does not pass its own."""

    def __init__(
        self,
        url: str,
        *,
        key: str | None = None,
        timeout: float = DEFAULT_TIMEOUT,
        reader: Reader | None = None,
        transport: httpx.AsyncBaseTransport | None = None,
    ) -> None:
        self.url = url.rstrip("/")
        self.reader = reader
        self._http = httpx.AsyncClient(
            base_url=self.url, headers=auth_headers(key), timeout=timeout, transport=transport
        )

    async def _send[T](self, call: Call[T]) -> T:
        try:
            response = await self._http.request(
                call.method,
                call.path,
                params=call.params or None,
                json=call.body,
                headers=call.headers,
            )
        except httpx.HTTPError as exc:
            raise transport_error(self.url, exc) from None
        return finish(call, response)

    async def close(self) -> None:
        await self._http.aclose()

    async def __aenter__(self) -> AsyncMemgateClient:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    # -- memories --------------------------------------------------------------------

    async def write(self, memory: MemoryWrite) -> WriteReceipt:
        return await self._send(calls.write(memory))

    async def get(self, memory_id: str, *, reader: Reader | None = None) -> MemoryItem:
        """The memory if served to this reader; raises NotFound otherwise."""
        return await self._send(calls.get(memory_id, pick_reader(reader, self.reader)))

    async def read(self, memory_id: str, reader: Reader | None = None) -> MemoryItem | None:
        """Like `Gateway.read`: None when not served to this reader."""
        try:
            return await self.get(memory_id, reader=reader)
        except RemoteNotFound:
            return None

    async def by_key(
        self, namespace: Namespace, key: str, *, reader: Reader | None = None
    ) -> MemoryItem:
        return await self._send(calls.by_key(namespace, key, pick_reader(reader, self.reader)))

    async def read_key(
        self, namespace: Namespace, key: str, reader: Reader | None = None
    ) -> MemoryItem | None:
        try:
            return await self.by_key(namespace, key, reader=reader)
        except RemoteNotFound:
            return None

    async def list_page(
        self,
        namespace_prefix: Namespace | None = None,
        *,
        limit: int = 50,
        offset: int = 0,
        reader: Reader | None = None,
    ) -> Page:
        return await self._send(
            calls.list_page(namespace_prefix, limit, offset, pick_reader(reader, self.reader))
        )

    async def list(
        self,
        namespace_prefix: Namespace | None = None,
        *,
        limit: int = 50,
        offset: int = 0,
        reader: Reader | None = None,
    ) -> builtins.list[MemoryItem]:
        page = await self.list_page(namespace_prefix, limit=limit, offset=offset, reader=reader)
        return [*page.items]

    async def search(
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
        return await self._send(
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

    async def delete(self, memory_id: str, *, reason: str | None = None) -> MemoryItem:
        return await self._send(calls.delete(memory_id, reason))

    async def history(self, memory_id: str) -> builtins.list[LogRecord]:
        return await self._send(calls.history(memory_id))

    async def scan(self, content: str, source: Source | str | None = None) -> dict[str, Any]:
        """The scan report for `content`; nothing is stored."""
        return await self._send(calls.scan(content, source))

    # -- review ----------------------------------------------------------------------

    async def pending(
        self,
        *,
        namespace_prefix: Namespace | None = None,
        category: str | None = None,
        source: Source | str | None = None,
        older_than_seconds: float | None = None,
        limit: int = 50,
        offset: int = 0,
    ) -> builtins.list[MemoryItem]:
        return await self._send(
            calls.pending(namespace_prefix, category, source, older_than_seconds, limit, offset)
        )

    async def review_item(self, memory_id: str) -> MemoryItem:
        """The memory in any state (reviewer / admin keys)."""
        return await self._send(calls.review_item(memory_id))

    async def approve(self, memory_id: str, *, note: str | None = None) -> MemoryItem:
        return await self._send(calls.approve(memory_id, note))

    async def reject(self, memory_id: str, *, reason: str) -> MemoryItem:
        return await self._send(calls.reject(memory_id, reason))

    async def edit_and_approve(
        self, memory_id: str, content: str, *, note: str | None = None
    ) -> MemoryItem:
        return await self._send(calls.edit(memory_id, content, note))

    async def bulk(
        self,
        action: Literal["approve", "reject"],
        ids: builtins.list[str],
        *,
        reason: str | None = None,
    ) -> builtins.list[BulkResult]:
        return await self._send(calls.bulk(action, ids, reason))

    # -- incident --------------------------------------------------------------------

    async def rollback(
        self,
        *,
        to: int | datetime,
        reason: str,
        scope: RollbackScope | None = None,
        dry_run: bool = True,
    ) -> RollbackPlan:
        return await self._send(calls.rollback(to, reason, scope, dry_run))

    async def log_page(self, *, after_seq: int = 0, limit: int = 100) -> LogPage:
        return await self._send(calls.log_page(after_seq, limit))

    async def verify(self, checkpoint: Checkpoint | None = None) -> VerifyResult:
        return await self._send(calls.verify(checkpoint))

    async def checkpoint(self) -> Checkpoint:
        return await self._send(calls.checkpoint())

    async def readers(
        self, memory_id: str, since: datetime | None = None, until: datetime | None = None
    ) -> Investigation:
        return await self._send(calls.readers(memory_id, since, until))

    async def blast_radius(self, memory_id: str, depth: int = 3) -> Investigation:
        return await self._send(calls.blast_radius(memory_id, depth))

    async def provenance(self, memory_id: str) -> Investigation:
        return await self._send(calls.provenance(memory_id))

    async def exposure(self, fingerprint: str) -> Investigation:
        return await self._send(calls.exposure(fingerprint))

    async def rebuild_graph(self) -> int:
        """Drop the server's graph and project it again from SQLite; returns the
        events projected (admin)."""
        return await self._send(calls.rebuild_graph())

    async def rebuild_graph_report(self) -> GraphRebuild:
        """Like `rebuild_graph`, with the rows the graph could not take and the
        rebuild skipped (ids and reasons) (admin)."""
        return await self._send(calls.rebuild_graph_report())

    # -- keys and health ---------------------------------------------------------------

    async def create_key(
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
        return await self._send(
            calls.create_key(name, role, namespaces or [], sources, user_channel, guard_roles)
        )

    async def set_key_sources(
        self, key_id: str, sources: builtins.list[str] | None, *, user_channel: bool = False
    ) -> ApiKey:
        """Replace the sources a key may declare (admin; None: its role's default)."""
        return await self._send(calls.set_key_sources(key_id, sources, user_channel))

    async def set_key_guard_roles(self, key_id: str, guard_roles: builtins.list[str]) -> ApiKey:
        """Replace the guard roles a key may act as (admin; empty: none, so the guard
        policy's default role)."""
        return await self._send(calls.set_key_guard_roles(key_id, guard_roles))

    async def list_keys(self) -> builtins.list[ApiKey]:
        return await self._send(calls.list_keys())

    async def my_key(self) -> ApiKey:
        """The key this client sends (any role): its role, scopes and sources."""
        return await self._send(calls.my_key())

    async def revoke_key(self, key_id: str) -> None:
        await self._send(calls.revoke_key(key_id))

    async def health(self) -> dict[str, Any]:
        return await self._send(calls.health("/healthz"))

    async def ready(self) -> dict[str, Any]:
        return await self._send(calls.health("/readyz"))
