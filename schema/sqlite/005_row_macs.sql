-- Everything served is covered by verification. Each projection row carries the
-- sequence number and MAC of the event that produced it and its own MAC (HMAC
-- under a key derived from the log key, over every stored column and that
-- event); each read is MAC-chained to the one before it, and the chain's head is
-- kept MACed in `heads`, so cutting off the newest reads shows too. Rows of a
-- database written before this migration are sealed by the store in the same
-- transaction, after verifying the log and rebuilding them from it
-- (memgate/store/sqlite_integrity.py: backfill).
ALTER TABLE items ADD COLUMN event_seq INTEGER;
ALTER TABLE items ADD COLUMN event_mac TEXT;
ALTER TABLE items ADD COLUMN row_mac TEXT;
ALTER TABLE short_items ADD COLUMN event_seq INTEGER;
ALTER TABLE short_items ADD COLUMN event_mac TEXT;
ALTER TABLE short_items ADD COLUMN row_mac TEXT;
ALTER TABLE reads ADD COLUMN mac TEXT;

CREATE TABLE heads (
    name          TEXT PRIMARY KEY,   -- 'reads'
    seq           INTEGER NOT NULL,
    mac           TEXT NOT NULL,
    tag           TEXT NOT NULL       -- HMAC over (name, seq, mac)
) STRICT;
