-- Tool calls the guard asked a person about (memgate.domain.asks). Not a
-- numbered migration: memgate.store.sqlite_asks applies it (IF NOT EXISTS) on
-- the store's file when it opens. The ask itself is JSON in `body` (arguments
-- redacted, fingerprints only); the columns are what queries select on. Times
-- are Unix seconds.
CREATE TABLE IF NOT EXISTS guard_asks (
    id          TEXT PRIMARY KEY,
    digest      TEXT NOT NULL,
    state       TEXT NOT NULL CHECK (state IN ('pending', 'allowed', 'denied', 'expired')),
    created_at  REAL NOT NULL,
    used_at     REAL,
    body        TEXT NOT NULL
) STRICT;
-- One pending ask per call digest: a retried call joins the waiting one.
CREATE UNIQUE INDEX IF NOT EXISTS guard_asks_pending
    ON guard_asks (digest) WHERE state = 'pending';
CREATE INDEX IF NOT EXISTS guard_asks_digest ON guard_asks (digest, created_at);
CREATE INDEX IF NOT EXISTS guard_asks_waiting ON guard_asks (created_at) WHERE state = 'pending';
-- (A table made before asks expired, whose check lacks 'expired', is rebuilt
-- with this definition by memgate.store.sqlite_asks when it opens.)
