-- The notification outbox. A trigger on the log writes a row for every event
-- people are told about, so the row commits in the same transaction as the event
-- (whoever appends it): an event in the log is never left untold. The rule is
-- memgate.domain.notices.kind_of; the contract tests hold the two together.
-- Rows of events carry the event's seq (the notice is built from the event when
-- it is delivered); rows of notices no event carries (verify failures) carry the
-- notice as JSON. Times are Unix seconds. Target ids, never URLs, are stored: a
-- webhook URL is a credential.
CREATE TABLE outbox (
    id            TEXT PRIMARY KEY,   -- ev<seq> for an event's notice
    kind          TEXT NOT NULL,
    event_seq     INTEGER,
    body          TEXT,
    created_at    REAL NOT NULL,
    next_at       REAL NOT NULL,
    attempts      INTEGER NOT NULL DEFAULT 0,
    lease_until   REAL,
    done          TEXT NOT NULL DEFAULT '[]',   -- JSON list of target ids
    delivered_at  REAL,
    gave_up_at    REAL,
    last_error    TEXT
) STRICT;
CREATE INDEX outbox_due ON outbox (next_at) WHERE delivered_at IS NULL AND gave_up_at IS NULL;

CREATE TRIGGER events_outbox AFTER INSERT ON events
WHEN (new.op = 'rolled_back' AND new.state_after IS NULL)
  OR (new.op = 'rejected' AND new.reason = 'review_timeout')
  OR (new.op != 'rolled_back' AND new.state_after = 'pending_review')
BEGIN
    INSERT INTO outbox (id, kind, event_seq, created_at, next_at)
    VALUES (
        'ev' || new.seq,
        CASE
            WHEN new.op = 'rolled_back' THEN 'rollback_applied'
            WHEN new.op = 'rejected' THEN 'review_timeout'
            ELSE 'review_pending'
        END,
        new.seq,
        (julianday('now') - 2440587.5) * 86400.0,
        (julianday('now') - 2440587.5) * 86400.0
    );
END;
