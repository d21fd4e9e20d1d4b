-- A reader's own pending memories are searched by session: without an index the
-- search walked every row matching the words (a common word: a large share of
-- the store). With it, the rows of one session and state are found directly and
-- each is checked against the full-text index.
CREATE INDEX items_session ON items (session_id, state, created_at);
