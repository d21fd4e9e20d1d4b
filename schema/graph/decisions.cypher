// A session's guard decisions, oldest first, with the memories their paths name.
MATCH (s:Session {id: $id})-[:MADE]->(c:Call)-[:DECIDED]->(x:Decision)
OPTIONAL MATCH (x)-[:NAMED]->(m:Memory)
WITH x, c, collect(m.id) AS named
RETURN x.seq, c.call_id, x.tool, x.decision, x.layer, x.at, named
ORDER BY x.seq
LIMIT $limit
