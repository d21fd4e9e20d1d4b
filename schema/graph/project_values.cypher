// Sensitive values by keyed fingerprint only (findings carry the fingerprint,
// never the value).
UNWIND $rows AS r
MATCH (m:Memory {id: r.mid})
MERGE (v:Value {fp: r.fp})
  ON CREATE SET v.category = r.category, v.rule = r.rule
MERGE (m)-[:CONTAINS]->(v)
RETURN count(v)
