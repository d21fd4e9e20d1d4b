"""The short-term pool on Redis, shared by every gateway replica (redis-py asyncio).

    pool = RedisShortPool.from_url("redis://127.0.0.1:6379/0", prefix="memgate:short:")

Same behaviour as the in-process `ShortTermPool`: each item expires at its own
`expires_at` (sliding on read when configured), each namespace holds at most
`max_entries` (least recently used leaves first), the whole pool at most
`max_total_entries` items and `max_total_bytes` (oldest put leaves first), and
what leaves by time or capacity is handed to the gateway, which logs an
`expired` event for each.

Exactly once across replicas. Redis's own key expiry and its keyspace
notifications are not used: notifications are fire-and-forget (a replica that
is down or reconnecting misses them) and an expired key is gone before anyone
could log it. Instead every mutation is one Lua script, so it is atomic on the
server:

- deadlines live in a sorted set (`due`, microseconds); a sweep moves every due
  item out of the pool and onto the `pending` list, in the same script that
  removes it, so each item leaves once whoever sweeps;
- capacity evictions go onto the same list inside the `put` that causes them;
- `claim_evicted` pops entries off `pending` into `claimed` (a lease): one
  replica gets each entry. After logging it calls `settle_evicted`. A replica
  that dies holding a claim leaves it to be claimed again once the lease runs
  out, marked `retried`, so the gateway checks its log before logging again;
- a memory that left keeps a tombstone with its version for `tombstone_ttl`,
  so a replica restoring an older snapshot of the store (taken before another
  replica logged the expiry) cannot put the same version back.

Scripts name their keys under the pool's prefix at run time (one Redis, not a
Redis Cluster: a cluster would need every key in one hash slot, e.g. a
`{prefix}` hash tag, which the prefix may carry).
"""

from __future__ import annotations

import asyncio
import time
import uuid
from collections.abc import Callable, Sequence
from datetime import UTC, datetime, timedelta
from typing import Any

import redis.asyncio as aioredis

from memgate.domain.memory import MemoryItem, MemoryState, utcnow
from memgate.domain.ports import Eviction, PoolQuery
from memgate.pools.query import matches, page, text_matches
from memgate.pools.short import item_bytes

Clock = Callable[[], datetime]
Items = list[MemoryItem]
Claimed = list[Eviction]

DEFAULT_PREFIX = "memgate:short:"
SWEEP_LIMIT = 1000
"""Due items one sweep script moves at most (a sweep loops until none is due)."""
CLAIM_LIMIT = 500

# -- Lua -------------------------------------------------------------------------
# ARGV[1] is always the key prefix. Times are integer microseconds (exact in a
# Lua double up to 2**53, about the year 2255).

_COMMON = """
local P = ARGV[1]
local function k(name) return P .. name end

local function unlink(id)
  local json = redis.call('HGET', k('items'), id)
  if not json then return false end
  local ns = redis.call('HGET', k('where'), id)
  local size = tonumber(redis.call('HGET', k('size'), id) or '0')
  redis.call('HDEL', k('items'), id)
  redis.call('HDEL', k('where'), id)
  redis.call('HDEL', k('size'), id)
  redis.call('HDEL', k('ver'), id)
  redis.call('ZREM', k('due'), id)
  redis.call('ZREM', k('order'), id)
  if ns then
    redis.call('ZREM', k('ns:') .. ns, id)
    if redis.call('ZCARD', k('ns:') .. ns) == 0 then
      redis.call('ZREM', k('spaces'), ns)
    end
  end
  redis.call('DECRBY', k('bytes'), size)
  return json
end

local function tombstone(id, version, ttl)
  if version then redis.call('SET', k('g:') .. id, version, 'EX', ttl) end
end

local function report(why, json)
  local n = redis.call('INCR', k('evn'))
  redis.call('HSET', k('evdata'), n, why .. '\\n' .. json)
  redis.call('RPUSH', k('pending'), n)
end

local function evict(id, why, ttl)
  local version = redis.call('HGET', k('ver'), id)
  local json = unlink(id)
  if not json then return end
  tombstone(id, version, ttl)
  report(why, json)
end

local function sweep(now, limit, ttl)
  local due = redis.call('ZRANGEBYSCORE', k('due'), '-inf', now, 'LIMIT', 0, limit)
  for _, id in ipairs(due) do evict(id, 'ttl', ttl) end
  return #due
end
"""

# ARGV: prefix, tombstone ttl, now, id, nskey, json, deadline|'', size, version,
# max_entries, max_total|'', max_bytes|''. Returns 0 (stale version, ignored),
# 1 (held), 2 (already expired: reported).
_PUT = (
    _COMMON
    + """
local ttl, now, id, ns, json = ARGV[2], tonumber(ARGV[3]), ARGV[4], ARGV[5], ARGV[6]
local deadline, size, version = ARGV[7], tonumber(ARGV[8]), tonumber(ARGV[9])
local max_entries, max_total, max_bytes = tonumber(ARGV[10]), ARGV[11], ARGV[12]
-- The sweep first: it may report this very item (held and due), leaving the
-- tombstone that makes this put a stale one, so it is never reported twice.
sweep(now, 1000, ttl)
local gone = redis.call('GET', k('g:') .. id)
if gone and tonumber(gone) >= version then return 0 end
if deadline ~= '' and tonumber(deadline) <= now then
  unlink(id)
  tombstone(id, version, ttl)
  report('ttl', json)
  return 2
end
unlink(id)
local tick = redis.call('INCR', k('tick'))
redis.call('HSET', k('items'), id, json)
redis.call('HSET', k('where'), id, ns)
redis.call('HSET', k('size'), id, size)
redis.call('HSET', k('ver'), id, version)
redis.call('INCRBY', k('bytes'), size)
if deadline ~= '' then redis.call('ZADD', k('due'), deadline, id) end
redis.call('ZADD', k('order'), tick, id)
redis.call('ZADD', k('ns:') .. ns, tick, id)
redis.call('ZADD', k('spaces'), 0, ns)
while redis.call('ZCARD', k('ns:') .. ns) > max_entries do
  local lru = redis.call('ZRANGE', k('ns:') .. ns, 0, 0)
  evict(lru[1], 'capacity', ttl)
end
while true do
  local why = false
  if max_total ~= '' and redis.call('ZCARD', k('order')) > tonumber(max_total) then
    why = 'pool_capacity'
  elseif max_bytes ~= ''
      and tonumber(redis.call('GET', k('bytes')) or '0') > tonumber(max_bytes) then
    why = 'pool_bytes'
  end
  if not why then break end
  local oldest = redis.call('ZRANGE', k('order'), 0, 0)
  if #oldest == 0 then break end
  evict(oldest[1], why, ttl)
end
return 1
"""
)

# ARGV: prefix, tombstone ttl, id.
_REMOVE = (
    _COMMON
    + """
local id = ARGV[3]
local version = redis.call('HGET', k('ver'), id)
if unlink(id) then tombstone(id, version, ARGV[2]) end
return 1
"""
)

# ARGV: prefix, tombstone ttl, now, id. The item's JSON, or false (absent or
# due: a due item is reported as expired here, once). A hit is a use (LRU).
_GET = (
    _COMMON
    + """
local ttl, now, id = ARGV[2], tonumber(ARGV[3]), ARGV[4]
local json = redis.call('HGET', k('items'), id)
if not json then return false end
local deadline = redis.call('ZSCORE', k('due'), id)
if deadline and tonumber(deadline) <= now then
  evict(id, 'ttl', ttl)
  return false
end
local ns = redis.call('HGET', k('where'), id)
redis.call('ZADD', k('ns:') .. ns, 'XX', redis.call('INCR', k('tick')), id)
return json
"""
)

# ARGV: prefix, id, the JSON read, the JSON with the slid expiry, its deadline.
# Compare-and-set: a newer version put meanwhile, or a sweep, wins.
_TOUCH = """
local P, id = ARGV[1], ARGV[2]
if redis.call('HGET', P .. 'items', id) ~= ARGV[3] then return 0 end
redis.call('HSET', P .. 'items', id, ARGV[4])
redis.call('ZADD', P .. 'due', ARGV[5], id)
return 1
"""

# ARGV: prefix, tombstone ttl, now. Loops in the caller while it returns `limit`.
_SWEEP = (
    _COMMON
    + """
return sweep(tonumber(ARGV[3]), tonumber(ARGV[4]), ARGV[2])
"""
)

# ARGV: prefix, low|'', high|''. Every held item's JSON under a namespace prefix.
_COLLECT = """
local P, low, high = ARGV[1], ARGV[2], ARGV[3]
local spaces
if low == '' then
  spaces = redis.call('ZRANGE', P .. 'spaces', 0, -1)
else
  spaces = redis.call('ZRANGEBYLEX', P .. 'spaces', '[' .. low, '(' .. high)
end
local out = {}
for _, ns in ipairs(spaces) do
  for _, id in ipairs(redis.call('ZRANGE', P .. 'ns:' .. ns, 0, -1)) do
    local json = redis.call('HGET', P .. 'items', id)
    if json then out[#out + 1] = json end
  end
end
return out
"""

# ARGV: prefix, now, lease deadline, limit. Claims past their lease go back on
# the list first (marked retried); then up to `limit` entries are claimed.
# Returns a flat list: token, 'why\\njson', retried ('1' | '0'), ...
_CLAIM = """
local P, now, until_, limit = ARGV[1], ARGV[2], ARGV[3], tonumber(ARGV[4])
for _, n in ipairs(redis.call('ZRANGEBYSCORE', P .. 'claimed', '-inf', now)) do
  redis.call('ZREM', P .. 'claimed', n)
  redis.call('HSET', P .. 'retried', n, '1')
  redis.call('RPUSH', P .. 'pending', n)
end
local out = {}
for _ = 1, limit do
  local n = redis.call('LPOP', P .. 'pending')
  if not n then break end
  local data = redis.call('HGET', P .. 'evdata', n)
  if data then
    redis.call('ZADD', P .. 'claimed', until_, n)
    out[#out + 1] = n
    out[#out + 1] = data
    out[#out + 1] = redis.call('HGET', P .. 'retried', n) or '0'
  end
end
return out
"""

# ARGV: prefix, token, token, ...
_SETTLE = """
local P = ARGV[1]
for i = 2, #ARGV do
  redis.call('ZREM', P .. 'claimed', ARGV[i])
  redis.call('HDEL', P .. 'evdata', ARGV[i])
  redis.call('HDEL', P .. 'retried', ARGV[i])
end
return #ARGV - 1
"""


_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)


def _micros(moment: datetime) -> int:
    """Microseconds since the epoch, exactly (a float timestamp can round)."""
    delta = moment - _EPOCH
    return (delta.days * 86_400 + delta.seconds) * 1_000_000 + delta.microseconds


def namespace_key(namespace: tuple[str, ...]) -> str:
    """Labels joined with '/' plus a trailing '/', so prefixes compare as strings
    (the stores' encoding, memgate.store.projection, which this layer cannot import)."""
    return "".join(f"{label}/" for label in namespace)


def prefix_bounds(prefix: tuple[str, ...]) -> tuple[str, str] | None:
    """[low, high) covering every namespace under `prefix` ('/' sorts before '0')."""
    if not prefix:
        return None
    low = namespace_key(prefix)
    return low, low[:-1] + chr(ord("/") + 1)


def _opt(value: int | None) -> str:
    return "" if value is None else str(value)


class RedisShortPool:
    """Transient memories in one Redis, per namespace, bounded, expiring; shared by
    every replica that opens it with the same `prefix` (see the module docstring)."""

    def __init__(
        self,
        client: aioredis.Redis,
        *,
        prefix: str = DEFAULT_PREFIX,
        max_entries: int = 1000,
        max_total_entries: int | None = None,
        max_total_bytes: int | None = None,
        sliding_ttl: timedelta | None = None,
        claim_lease: timedelta = timedelta(seconds=30),
        tombstone_ttl: timedelta = timedelta(days=1),
        clock: Clock = utcnow,
        max_in_flight: int = 32,
        claim_interval: float = 1.0,
    ) -> None:
        if max_entries < 1:
            raise ValueError("max_entries must be at least 1")
        self._redis = client
        self.prefix = prefix
        self._max = max_entries
        self._max_total = max_total_entries
        self._max_bytes = max_total_bytes
        self._sliding = sliding_ttl
        self._lease = claim_lease
        self._tomb = str(max(int(tombstone_ttl.total_seconds()), 1))
        self._clock = clock
        # NOTE: a semaphore, not redis-py's BlockingConnectionPool: its waiters all
        # wake on every release, which under a few thousand concurrent callers
        # starved the loop past the socket timeout.
        self._in_flight = asyncio.Semaphore(max_in_flight)
        # The gateway asks for evictions after every write. This instance claims at
        # once after its own puts, reads and sweeps (which may have evicted), and
        # otherwise at most every `claim_interval` seconds (what other replicas left
        # unclaimed): a long-term write does not pay a round trip to Redis.
        self._claim_interval = claim_interval
        self._dirty = True
        self._next_claim = 0.0
        script = client.register_script
        self._put, self._remove, self._get = script(_PUT), script(_REMOVE), script(_GET)
        self._touch, self._sweep = script(_TOUCH), script(_SWEEP)
        self._collect, self._claim, self._settle = (
            script(_COLLECT),
            script(_CLAIM),
            script(_SETTLE),
        )

    @classmethod
    def from_url(cls, url: str, *, max_connections: int = 32, **kwargs: Any) -> RedisShortPool:
        """A pool on the Redis at `url` (`redis://host:port/db`, `rediss://`, `unix://`).
        Nothing connects until the first command. At most `max_connections` are
        open; past them a command waits its turn (a burst of requests queues,
        first come first served, instead of failing with "too many connections")."""
        connections = aioredis.ConnectionPool.from_url(url, max_connections=max_connections)
        return cls(aioredis.Redis.from_pool(connections), max_in_flight=max_connections, **kwargs)

    def _now(self) -> int:
        return _micros(self._clock())

    async def _run(self, script: Any, *args: Any) -> Any:
        async with self._in_flight:
            return await script(keys=[], args=[self.prefix, *args])

    # -- Pool ----------------------------------------------------------------------

    async def put(self, item: MemoryItem) -> None:
        self._dirty = True
        if item.state is not MemoryState.TRANSIENT:
            await self.remove(item.id)
            return
        deadline = "" if item.expires_at is None else str(_micros(item.expires_at))
        await self._run(
            self._put,
            self._tomb,
            self._now(),
            item.id,
            namespace_key(item.namespace),
            item.model_dump_json(),
            deadline,
            item_bytes(item),
            item.version,
            self._max,
            _opt(self._max_total),
            _opt(self._max_bytes),
        )

    async def remove(self, memory_id: str) -> None:
        await self._run(self._remove, self._tomb, memory_id)

    async def get(self, memory_id: str) -> MemoryItem | None:
        raw = await self._run(self._get, self._tomb, self._now(), memory_id)
        if raw is None:
            self._dirty = True  # it may have been due: reported by the script
            return None
        item = MemoryItem.model_validate_json(raw)
        if self._sliding is None:
            return item
        slid = item.model_copy(update={"expires_at": self._clock() + self._sliding})
        assert slid.expires_at is not None  # noqa: S101 - set on the line above
        await self._run(
            self._touch, memory_id, raw, slid.model_dump_json(), _micros(slid.expires_at)
        )
        return slid

    async def _held(self, prefix: tuple[str, ...]) -> Items:
        await self.sweep()  # due items are reported, never served
        low, high = prefix_bounds(prefix) or ("", "")
        rows = await self._run(self._collect, low, high)
        return [MemoryItem.model_validate_json(row) for row in rows]

    async def get_by_key(self, namespace: tuple[str, ...], key: str) -> MemoryItem | None:
        keyed = [
            item
            for item in await self._held(namespace)
            if item.namespace == namespace and item.key == key
        ]
        if not keyed:
            return None
        newest = max(keyed, key=lambda i: (i.updated_at, i.id))
        return await self.get(newest.id)

    async def list(self, query: PoolQuery) -> Items:
        held = await self._held(query.namespace_prefix)
        return page([i for i in held if matches(i, query)], query)

    async def search(self, query: PoolQuery) -> Items:
        held = await self._held(query.namespace_prefix)
        return page([i for i in held if matches(i, query) and text_matches(i, query.text)], query)

    # -- ShortPool -------------------------------------------------------------------

    async def sweep(self) -> None:
        """Move every due item out of the pool, reported as `ttl` (atomic: each once)."""
        self._dirty = True
        now = self._now()
        while await self._run(self._sweep, self._tomb, now, SWEEP_LIMIT) >= SWEEP_LIMIT:
            pass

    async def claim_evicted(self) -> Claimed:
        """Items that left since anyone claimed them, each to one caller across every
        replica; entries whose claimer did not settle within the lease come back
        with `retried=True`."""
        ticks = time.monotonic()
        if not self._dirty and ticks < self._next_claim:
            return []
        self._dirty, self._next_claim = False, ticks + self._claim_interval
        now = self._clock()
        lease_end = _micros(now + self._lease)
        claimed: Claimed = []
        while True:
            flat = await self._run(self._claim, _micros(now), lease_end, CLAIM_LIMIT)
            for i in range(0, len(flat), 3):
                token, data, retried = flat[i], flat[i + 1], flat[i + 2]
                why, _, raw = bytes(data).partition(b"\n")
                claimed.append(
                    Eviction(
                        MemoryItem.model_validate_json(raw),
                        why.decode(),
                        token=bytes(token).decode(),
                        retried=retried == b"1",
                    )
                )
            if len(flat) < 3 * CLAIM_LIMIT:
                return claimed

    async def settle_evicted(self, evictions: Sequence[Eviction]) -> None:
        """The claimed evictions are logged: forget them."""
        tokens = [e.token for e in evictions if e.token]
        for start in range(0, len(tokens), CLAIM_LIMIT):
            await self._run(self._settle, *tokens[start : start + CLAIM_LIMIT])

    async def lost(self) -> bool:
        """True until `filled`, and again after the Redis lost its data (a restart
        without persistence, a flush): its marker key is gone with the rest."""
        return not await self._redis.exists(self.prefix + "filled")

    async def filled(self) -> None:
        await self._redis.set(self.prefix + "filled", "1")

    # -- housekeeping ----------------------------------------------------------------

    async def count(self) -> int:
        """How many items the pool holds."""
        return int(await self._redis.zcard(self.prefix + "order"))

    async def total_bytes(self) -> int:
        """The estimated memory the held items cost (see `item_bytes`)."""
        return int(await self._redis.get(self.prefix + "bytes") or 0)

    async def ping(self) -> None:
        """Raise if the Redis does not answer."""
        await self._redis.ping()

    async def clear(self) -> int:
        """Delete every key under the prefix (tests, or a pool given up); returns how many."""
        deleted = 0
        batch: list[bytes] = []
        async for name in self._redis.scan_iter(match=_glob(self.prefix) + "*", count=500):
            batch.append(name)
            if len(batch) >= 500:
                deleted += await self._redis.delete(*batch)
                batch = []
        if batch:
            deleted += await self._redis.delete(*batch)
        return deleted

    async def close(self) -> None:
        await self._redis.aclose()


def _glob(text: str) -> str:
    """`text` with the glob metacharacters of SCAN MATCH escaped."""
    return "".join("\\" + c if c in "*?[]\\" else c for c in text)


def fresh_prefix(base: str = "memgate:test:") -> str:
    """A prefix no other pool uses (tests: each its own, deleted after)."""
    return f"{base}{uuid.uuid4().hex[:12]}:"


__all__ = ["DEFAULT_PREFIX", "RedisShortPool", "fresh_prefix"]
