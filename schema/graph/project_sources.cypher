UNWIND $rows AS r
MATCH (m:Memory {id: r.mid})
MERGE (s:Source {id: r.sid})
  ON CREATE SET s.kind = r.kind, s.uri = r.uri
MERGE (m)-[:FROM_SOURCE]->(s)
RETURN count(s)
