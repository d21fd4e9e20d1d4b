-- memgate long-term pool and event log, in one SQLite database (WAL).
-- The items table is a projection of the events table, written in the same
-- transaction as the event that changed it.

CREATE TABLE events (
    seq           INTEGER PRIMARY KEY,
    at            TEXT NOT NULL,
    memory_id     TEXT NOT NULL,
    op            TEXT NOT NULL,
    actor         TEXT NOT NULL,
    reason        TEXT,
    state_before  TEXT,
    state_after   TEXT,
    summary       TEXT NOT NULL,      -- trust score, rules version, rule ids (JSON)
    entry         BLOB NOT NULL,      -- canonical JSON of the event: what the MAC covers
    prev_mac      TEXT NOT NULL,
    mac           TEXT NOT NULL
) STRICT;
CREATE INDEX events_memory ON events (memory_id, seq);
CREATE INDEX events_at ON events (at);

-- Append-only: history is never rewritten, not even by memgate itself.
CREATE TRIGGER events_no_update BEFORE UPDATE ON events
BEGIN SELECT RAISE(ABORT, 'events are append-only'); END;
CREATE TRIGGER events_no_delete BEFORE DELETE ON events
BEGIN SELECT RAISE(ABORT, 'events are append-only'); END;

CREATE TABLE items (
    rowid         INTEGER PRIMARY KEY,
    id            TEXT NOT NULL UNIQUE,
    namespace     TEXT NOT NULL,      -- labels joined with '/', plus a trailing '/'
    key           TEXT,
    pool          TEXT NOT NULL,
    state         TEXT NOT NULL,
    source        TEXT NOT NULL,
    session_id    TEXT,
    created_at    TEXT NOT NULL,
    updated_at    TEXT NOT NULL,
    expires_at    TEXT,
    fingerprint   TEXT NOT NULL,
    categories    TEXT NOT NULL,      -- ' secret pii ' style, for filtering
    content       TEXT NOT NULL,      -- secrets redacted
    body          TEXT NOT NULL       -- the full item as JSON
) STRICT;
CREATE INDEX items_namespace ON items (namespace, state);
CREATE INDEX items_key ON items (namespace, key) WHERE key IS NOT NULL;
CREATE INDEX items_state_created ON items (state, created_at);
CREATE INDEX items_fingerprint ON items (fingerprint);

CREATE VIRTUAL TABLE items_fts USING fts5 (content, content='items', content_rowid='rowid');
CREATE TRIGGER items_fts_insert AFTER INSERT ON items BEGIN
    INSERT INTO items_fts (rowid, content) VALUES (new.rowid, new.content);
END;
CREATE TRIGGER items_fts_delete AFTER DELETE ON items BEGIN
    INSERT INTO items_fts (items_fts, rowid, content) VALUES ('delete', old.rowid, old.content);
END;
CREATE TRIGGER items_fts_update AFTER UPDATE OF content ON items
WHEN old.content IS NOT new.content BEGIN
    INSERT INTO items_fts (items_fts, rowid, content) VALUES ('delete', old.rowid, old.content);
    INSERT INTO items_fts (rowid, content) VALUES (new.rowid, new.content);
END;

CREATE TABLE tags (
    memory_id     TEXT NOT NULL,
    name          TEXT NOT NULL,
    value         TEXT,
    PRIMARY KEY (memory_id, name)
) STRICT;

CREATE TABLE reads (
    seq           INTEGER PRIMARY KEY,
    memory_id     TEXT NOT NULL,
    at            TEXT NOT NULL,
    session_id    TEXT,
    call_id       TEXT,
    agent_id      TEXT
) STRICT;
CREATE INDEX reads_memory ON reads (memory_id, seq);

-- Transient items of the short-term pool, kept only to restore it after a
-- restart. Never read by long-term queries.
CREATE TABLE short_items (
    id            TEXT PRIMARY KEY,
    expires_at    TEXT,
    body          TEXT NOT NULL
) STRICT;
