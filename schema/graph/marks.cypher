OPTIONAL MATCH (meta:Meta {id: 'projection'})
RETURN meta.events_seq, meta.reads_seq, meta.head_mac, meta.set_aside, meta.set_aside_count
