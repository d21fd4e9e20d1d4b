-- Tool calls the guard asked a person about (memgate.domain.asks), shared by
-- every replica. Not a numbered migration: memgate.store.postgres_asks applies
-- it (IF NOT EXISTS, under an advisory lock) when it first connects. The ask is
-- JSON in `body` (arguments redacted, fingerprints only). Times: Unix seconds.
CREATE TABLE IF NOT EXISTS guard_asks (
    id          text PRIMARY KEY,
    digest      text NOT NULL,
    state       text NOT NULL CHECK (state IN ('pending', 'allowed', 'denied', 'expired')),
    created_at  double precision NOT NULL,
    used_at     double precision,
    body        jsonb NOT NULL
);
CREATE UNIQUE INDEX IF NOT EXISTS guard_asks_pending
    ON guard_asks (digest) WHERE state = 'pending';
CREATE INDEX IF NOT EXISTS guard_asks_digest ON guard_asks (digest, created_at);
CREATE INDEX IF NOT EXISTS guard_asks_waiting ON guard_asks (created_at) WHERE state = 'pending';
-- A table made before asks expired: its state check lacks 'expired' (replaced
-- once, under the same advisory lock; the name is PostgreSQL's default).
DO $$
BEGIN
    IF EXISTS (
        SELECT 1 FROM pg_constraint
        WHERE conrelid = 'guard_asks'::regclass AND contype = 'c'
          AND pg_get_constraintdef(oid) LIKE '%state%'
          AND pg_get_constraintdef(oid) NOT LIKE '%expired%'
    ) THEN
        ALTER TABLE guard_asks DROP CONSTRAINT IF EXISTS guard_asks_state_check;
        ALTER TABLE guard_asks ADD CONSTRAINT guard_asks_state_check
            CHECK (state IN ('pending', 'allowed', 'denied', 'expired'));
    END IF;
END $$;
