-- The guard's value fingerprints, decided calls and memory-feed cursors, shared
-- by every replica (issue 17). Until now each data directory kept them in
-- db/guard.sqlite3, so a secret seen in a tool result reported to one replica
-- was not matched by a call sent through another. Only keyed fingerprints of a
-- value and of its encodings are stored, never the value.
CREATE TABLE guard_values (
    fp         text NOT NULL,
    value_fp   text NOT NULL,
    form       text NOT NULL,
    rule_id    text,
    call_id    text NOT NULL,
    session_id text,
    agent_id   text,
    tool       text,
    at         double precision NOT NULL,
    memory_id  text,
    PRIMARY KEY (fp, call_id)
);
CREATE INDEX guard_values_memory ON guard_values (memory_id, tool)
    WHERE memory_id IS NOT NULL;

CREATE TABLE guard_calls (
    call_id    text PRIMARY KEY,
    session_id text,
    agent_id   text,
    tool       text NOT NULL,
    at         double precision NOT NULL,
    decision   text NOT NULL,
    layer      text NOT NULL
);

-- How far the memory feed has read (events | reads); replicas feed the same
-- table, and a cursor only moves forward.
CREATE TABLE guard_feed (
    name   text PRIMARY KEY,
    cursor bigint NOT NULL
);

-- Call-chain rate windows (calls per agent, per matrix rule, per minute): one
-- row per call, so a limit of N a minute holds across replicas, not N × replicas.
CREATE TABLE guard_chain_hits (
    key text NOT NULL,
    at  double precision NOT NULL
);
CREATE INDEX guard_chain_hits_key_at ON guard_chain_hits (key, at);
