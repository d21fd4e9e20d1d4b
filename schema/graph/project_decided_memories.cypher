// The memories a decision's flow path names (read from, written into): only
// memories the graph has (a decision never invents one).
UNWIND $rows AS r
MATCH (x:Decision {seq: r.seq})
MATCH (m:Memory {id: r.mid})
MERGE (x)-[e:NAMED]->(m)
  ON CREATE SET e.kind = r.kind
RETURN count(e)
