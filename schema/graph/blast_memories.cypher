// The namespace and state of the memories a blast radius walk kept (by index),
// packed as blast_radius replies: one row, the number of memories, then their
// ids, states (a null as $null) and namespaces (labels joined by $ps; no label
// is empty) as one string per column, joined by $fs.
UNWIND $ids AS id
MATCH (m:Memory {id: id})
RETURN count(m),
  string.join(collect(m.id), $fs),
  string.join(collect(coalesce(m.state, $null)), $fs),
  string.join(collect(string.join(coalesce(m.ns, []), $ps)), $fs)
