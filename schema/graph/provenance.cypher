// Where a memory came from: itself and its ancestors along DERIVED_FROM (up
// to 6), each with its source, its writing call and session.
MATCH (m:Memory {id: $id})
MATCH p = (m)-[:DERIVED_FROM*0..6]->(a:Memory)
OPTIONAL MATCH (a)-[:FROM_SOURCE]->(src:Source)
OPTIONAL MATCH (c:Call)-[:WROTE]->(a)
OPTIONAL MATCH (a)-[:DERIVED_FROM]->(parent:Memory)
RETURN a.id, length(p), src.kind, src.uri, c.session_id, c.call_id, c.tool,
       collect(DISTINCT parent.id)
ORDER BY length(p)
LIMIT $limit
