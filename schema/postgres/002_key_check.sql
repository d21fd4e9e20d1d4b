-- Which log key this database's chain is written under, as a MAC of a constant
-- (never the key): a store opened with another key (a replica given the wrong
-- MEMGATE_LOG_KEY, a fresh data directory that made a new key) is refused at
-- open instead of appending events nobody can verify later.
CREATE TABLE memgate_meta (
    name          text PRIMARY KEY,
    value         text NOT NULL
);
