-- memgate on PostgreSQL: the event log, the long-term pool, reads, snapshots and
-- the notification outbox in one database (memgate/store/postgres.py applies the
-- numbered files of this directory in order, recording each in
-- memgate_migrations). The same rows as on SQLite, sealed with the same MACs.
--
-- Text that is compared as bytes (namespaces by prefix, instants as fixed-width
-- UTC text) is COLLATE "C", whatever the database's locale. User text that may
-- hold any character (content, namespace, key, session id: NUL included, which a
-- PostgreSQL text value cannot hold) is stored as its UTF-8 bytes (bytea), which
-- compare as "C" text does.

CREATE TABLE events (
    seq           bigint PRIMARY KEY,   -- read and assigned under the chain lock, never a serial
    at            text COLLATE "C" NOT NULL,
    memory_id     text COLLATE "C" NOT NULL,
    op            text NOT NULL,
    actor         text NOT NULL,
    reason        text,
    state_before  text,
    state_after   text,
    summary       text NOT NULL,        -- trust score, rules version, rule ids (JSON)
    entry         bytea NOT NULL,       -- canonical JSON of the event: what the MAC covers
    prev_mac      text NOT NULL,
    mac           text NOT NULL
);
CREATE INDEX events_memory ON events (memory_id, seq);
CREATE INDEX events_at ON events (at);

-- Append-only: history is never rewritten, not even by memgate itself.
CREATE FUNCTION memgate_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION 'events are append-only' USING ERRCODE = 'integrity_constraint_violation';
END;
$$;
CREATE TRIGGER events_no_update BEFORE UPDATE OR DELETE ON events
    FOR EACH ROW EXECUTE FUNCTION memgate_append_only();
CREATE TRIGGER events_no_truncate BEFORE TRUNCATE ON events
    FOR EACH STATEMENT EXECUTE FUNCTION memgate_append_only();

CREATE TABLE items (
    id            text COLLATE "C" PRIMARY KEY,
    namespace     bytea NOT NULL,       -- labels joined with '/', plus a trailing '/'
    key           bytea,
    pool          text NOT NULL,
    state         text NOT NULL,
    source        text NOT NULL,
    session_id    bytea,
    created_at    text COLLATE "C" NOT NULL,
    updated_at    text COLLATE "C" NOT NULL,
    expires_at    text COLLATE "C",
    fingerprint   text NOT NULL,
    categories    text NOT NULL,        -- ' secret pii ' style, for filtering
    content       bytea NOT NULL,       -- secrets redacted
    body          text NOT NULL,        -- the full item as JSON (control characters escaped)
    event_seq     bigint,
    event_mac     text,
    row_mac       text,
    -- Derived, for queries only (not MACed: every served row is checked by its MAC):
    words         tsvector NOT NULL,    -- the content's words, lower-cased (the \w+ rule)
    meta          jsonb NOT NULL        -- the item's metadata, for equality filters
);
CREATE INDEX items_namespace ON items (namespace, state);
CREATE INDEX items_key ON items (namespace, key) WHERE key IS NOT NULL;
CREATE INDEX items_state_created ON items (state, created_at);
CREATE INDEX items_created ON items (created_at, id);
CREATE INDEX items_fingerprint ON items (fingerprint);
CREATE INDEX items_session ON items (session_id, state, created_at);
CREATE INDEX items_words ON items USING gin (words);

-- Transient items of the short-term pool, kept only to restore it after a
-- restart. Never read by long-term queries.
CREATE TABLE short_items (
    id            text COLLATE "C" PRIMARY KEY,
    expires_at    text,
    body          text NOT NULL,
    event_seq     bigint,
    event_mac     text,
    row_mac       text
);

-- Reads, MAC-chained in the order they were recorded (numbered under the chain lock).
CREATE TABLE reads (
    seq           bigint PRIMARY KEY,
    memory_id     text COLLATE "C" NOT NULL,
    at            text COLLATE "C" NOT NULL,
    session_id    text,
    call_id       text,
    agent_id      text,
    mac           text
);
CREATE INDEX reads_memory ON reads (memory_id, seq);
CREATE INDEX reads_session ON reads (session_id, seq) WHERE session_id IS NOT NULL;
CREATE INDEX reads_call ON reads (call_id, seq) WHERE call_id IS NOT NULL;
CREATE INDEX reads_agent ON reads (agent_id, seq) WHERE agent_id IS NOT NULL;
CREATE INDEX reads_agent_alone ON reads (agent_id, seq) WHERE session_id IS NULL;

CREATE TABLE heads (
    name          text PRIMARY KEY,     -- 'reads'
    seq           bigint NOT NULL,
    mac           text NOT NULL,
    tag           text NOT NULL         -- HMAC over (name, seq, mac)
);

-- Snapshots of the projection (every memory's latest item at a sequence number),
-- compressed and MACed; one that fails its MAC is ignored and replay starts earlier.
CREATE TABLE snapshots (
    seq           bigint PRIMARY KEY,
    at            text NOT NULL,
    head_mac      text NOT NULL,        -- MAC of event `seq`: ties the snapshot to the chain
    body          bytea NOT NULL,       -- zlib(canonical JSON {memory_id: item})
    mac           text NOT NULL         -- HMAC(key, seq | head_mac | body)
);

-- The notification outbox: a trigger on the log writes a row for every event
-- people are told about, in the event's own transaction (the rule is
-- memgate.domain.notices.kind_of, as in schema/sqlite/006_outbox.sql). Times are
-- Unix seconds; target ids, never URLs, are stored.
CREATE TABLE outbox (
    id            text PRIMARY KEY,     -- ev<seq> for an event's notice
    kind          text NOT NULL,
    event_seq     bigint,
    body          text,
    created_at    double precision NOT NULL,
    next_at       double precision NOT NULL,
    attempts      integer NOT NULL DEFAULT 0,
    lease_until   double precision,
    done          text NOT NULL DEFAULT '[]',   -- JSON list of target ids
    delivered_at  double precision,
    gave_up_at    double precision,
    last_error    text
);
CREATE INDEX outbox_due ON outbox (next_at) WHERE delivered_at IS NULL AND gave_up_at IS NULL;

CREATE FUNCTION memgate_events_outbox() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    now_s double precision := extract(epoch FROM clock_timestamp());
BEGIN
    INSERT INTO outbox (id, kind, event_seq, created_at, next_at)
    VALUES (
        'ev' || NEW.seq,
        CASE
            WHEN NEW.op = 'rolled_back' THEN 'rollback_applied'
            WHEN NEW.op = 'rejected' THEN 'review_timeout'
            ELSE 'review_pending'
        END,
        NEW.seq,
        now_s,
        now_s
    );
    RETURN NULL;
END;
$$;
CREATE TRIGGER events_outbox AFTER INSERT ON events
    FOR EACH ROW
    WHEN ((NEW.op = 'rolled_back' AND NEW.state_after IS NULL)
       OR (NEW.op = 'rejected' AND NEW.reason IS NOT DISTINCT FROM 'review_timeout')
       OR (NEW.op <> 'rolled_back' AND NEW.state_after IS NOT DISTINCT FROM 'pending_review'))
    EXECUTE FUNCTION memgate_events_outbox();
