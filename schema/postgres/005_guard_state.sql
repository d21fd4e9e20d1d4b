-- The guard's decision state, shared by every replica (issue 17). Until now each
-- data directory kept trust counters and tool pins in db/guard.sqlite3 and the
-- call-chain tracker kept depth, the destructive-call breaker and masking
-- chains in process memory: a tool description changed after trust was earned
-- and seen through another replica was no rug pull there, and a task's
-- destructive calls were counted per replica. Same-tool bursts count in guard_chain_hits (004).

-- Trust per (tool, argument shape): results of allowed calls, denied calls.
CREATE TABLE guard_trust (
    shape text PRIMARY KEY,
    tool  text NOT NULL,
    ok    bigint NOT NULL,
    bad   bigint NOT NULL,
    at    double precision NOT NULL
);

-- Pinned tool descriptions: the first digest seen (or the last accepted one)
-- and the latest listing's; pinned <> seen is a changed tool (asked about).
CREATE TABLE guard_tools (
    server    text NOT NULL,
    tool      text NOT NULL,
    pinned    text NOT NULL,
    seen      text NOT NULL,
    pinned_at double precision NOT NULL,
    seen_at   double precision NOT NULL,
    PRIMARY KEY (server, tool)
);
CREATE INDEX guard_tools_changed ON guard_tools (server, tool) WHERE pinned <> seen;

-- Nesting depth of decided calls, for their children (pruned after an hour).
CREATE TABLE guard_depth (
    call_id text PRIMARY KEY,
    depth   integer NOT NULL,
    at      double precision NOT NULL
);
CREATE INDEX guard_depth_at ON guard_depth (at);

-- The circuit breaker on destructive calls: calls let through per task (or
-- session, or agent), taken atomically against the limit.
CREATE TABLE guard_breaker (
    scope text PRIMARY KEY,
    n     integer NOT NULL,
    at    double precision NOT NULL
);

-- Masking-bypass chains (export -> read -> extract -> write with no masking
-- step): per task, the calls of the chain so far.
CREATE TABLE guard_masking (
    scope text PRIMARY KEY,
    calls text[] NOT NULL,
    at    double precision NOT NULL
);
