-- Full-text indexing off the commit path. Indexing a row into FTS5 inside every
-- write transaction was the largest single cost of a durable write (a new FTS
-- segment per commit). New rows are now indexed in batches by the store after
-- the commit (rows above `fts_state.indexed_rowid`); a search first indexes the
-- rows not yet indexed, so its results stay exact.
-- Rows at or below the mark are kept in sync by triggers, as before: content
-- changes (edits, rollbacks), deletes, and a reused rowid.
DROP TRIGGER items_fts_insert;
DROP TRIGGER items_fts_delete;
DROP TRIGGER items_fts_update;

CREATE TABLE fts_state (
    id             INTEGER PRIMARY KEY CHECK (id = 1),
    indexed_rowid  INTEGER NOT NULL    -- every items row with rowid <= this is in items_fts
) STRICT;
INSERT INTO fts_state (id, indexed_rowid) SELECT 1, coalesce(max(rowid), 0) FROM items;

CREATE TRIGGER items_fts_insert AFTER INSERT ON items
WHEN new.rowid <= (SELECT indexed_rowid FROM fts_state WHERE id = 1) BEGIN
    INSERT INTO items_fts (rowid, content) VALUES (new.rowid, new.content);
END;
CREATE TRIGGER items_fts_delete AFTER DELETE ON items
WHEN old.rowid <= (SELECT indexed_rowid FROM fts_state WHERE id = 1) BEGIN
    INSERT INTO items_fts (items_fts, rowid, content) VALUES ('delete', old.rowid, old.content);
END;
CREATE TRIGGER items_fts_update AFTER UPDATE OF content ON items
WHEN old.content IS NOT new.content
    AND old.rowid <= (SELECT indexed_rowid FROM fts_state WHERE id = 1) BEGIN
    INSERT INTO items_fts (items_fts, rowid, content) VALUES ('delete', old.rowid, old.content);
    INSERT INTO items_fts (rowid, content) VALUES (new.rowid, new.content);
END;
