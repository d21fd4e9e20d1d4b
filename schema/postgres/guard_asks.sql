-- Tool calls the guard asked a person about (memgate.domain.asks), shared by
-- every replica. Not a numbered migration: memgate.store.postgres_asks applies
-- it (IF NOT EXISTS, under an advisory lock) when it first connects. The ask is
-- JSON in `body` (arguments redacted, fingerprints only). Times: Unix seconds.
CREATE TABLE IF NOT EXISTS guard_asks (
    id          text PRIMARY KEY,
    digest      text NOT NULL,
    state       text NOT NULL CHECK (state IN ('pending', 'allowed', 'denied')),
    created_at  double precision NOT NULL,
    used_at     double precision,
    body        jsonb NOT NULL
);
CREATE UNIQUE INDEX IF NOT EXISTS guard_asks_pending
    ON guard_asks (digest) WHERE state = 'pending';
CREATE INDEX IF NOT EXISTS guard_asks_digest ON guard_asks (digest, created_at);
CREATE INDEX IF NOT EXISTS guard_asks_waiting ON guard_asks (created_at) WHERE state = 'pending';
