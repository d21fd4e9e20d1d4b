-- The local vector index of semantic recall (memgate.recall.index.SqliteVectorIndex):
-- one row per approved long-term memory, a projection of the event log that can
-- always be dropped and rebuilt. Its own file in the data directory
-- (recall/vectors.sqlite3), so the store's database and migrations are untouched.
CREATE TABLE IF NOT EXISTS vectors (
    memory_id TEXT PRIMARY KEY,
    namespace TEXT NOT NULL,   -- labels joined with '/' plus a trailing '/'
    vector BLOB NOT NULL       -- float32, little-endian, unit length
) WITHOUT ROWID;

CREATE TABLE IF NOT EXISTS mark (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    seq INTEGER NOT NULL,      -- the last log event applied
    mac TEXT NOT NULL,         -- that event's MAC
    embedder TEXT NOT NULL,    -- the model the vectors came from
    dims INTEGER NOT NULL
);
