-- Snapshots of the projection (every memory's latest item at a sequence number),
-- compressed, so that replay for a rollback starts from the nearest snapshot at
-- or before the target instead of from the first event. Derived data: each body
-- carries a MAC; a snapshot that fails it is ignored and replay starts earlier.
CREATE TABLE snapshots (
    seq           INTEGER PRIMARY KEY,
    at            TEXT NOT NULL,
    head_mac      TEXT NOT NULL,   -- MAC of event `seq`: ties the snapshot to the chain
    body          BLOB NOT NULL,   -- zlib(canonical JSON {memory_id: item})
    mac           TEXT NOT NULL    -- HMAC(key, seq | head_mac | body)
) STRICT;
