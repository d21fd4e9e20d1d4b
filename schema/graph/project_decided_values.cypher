// The sensitive values (by keyed fingerprint) a decision's flow path names: only
// values the graph has (a memory contains them).
UNWIND $rows AS r
MATCH (x:Decision {seq: r.seq})
MATCH (v:Value {fp: r.fp})
MERGE (x)-[e:CARRIED]->(v)
  ON CREATE SET e.kind = r.kind
RETURN count(e)
