// Last query of an events batch: everything before it is idempotent (MERGE),
// so a batch cut short by an outage is simply replayed from the old mark.
// The batch's set-aside records (JSON, ids and reasons only) are kept with the
// mark that passes them, in the same query: a replay never lists one twice.
// Past $keep kept rows only the count grows (the Meta node stays bounded).
// Fenced: the mark moves only from $after (the mark the projector believes the
// graph holds); otherwise nothing is returned and the projector re-reads the
// marks (a server that came back empty, another projector).
MERGE (meta:Meta {id: 'projection'})
WITH meta, coalesce(meta.set_aside, []) AS kept
WHERE $after IS NULL OR coalesce(meta.events_seq, 0) = $after
SET meta.events_seq = $seq, meta.head_mac = $mac,
    meta.set_aside = kept + $aside[0..($keep - size(kept))],
    meta.set_aside_count = coalesce(meta.set_aside_count, 0) + size($aside)
RETURN meta.events_seq
