// Last query of an events batch: everything before it is idempotent (MERGE),
// so a batch cut short by an outage is simply replayed from the old mark.
MERGE (meta:Meta {id: 'projection'})
SET meta.events_seq = $seq, meta.head_mac = $mac
RETURN meta.events_seq
