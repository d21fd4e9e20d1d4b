// One batch of rows from the SQLite `reads` table, and the reads high-water
// mark, in one query: FalkorDB runs a query atomically, so a replayed batch
// never duplicates READ edges.
UNWIND $rows AS r
MERGE (c:Call {id: r.call})
  ON CREATE SET c.call_id = r.call_id, c.session_id = r.session, c.agent_id = r.agent, c.at = r.at
MERGE (m:Memory {id: r.mid})
CREATE (c)-[:READ {at: r.at, agent_id: r.agent}]->(m)
WITH count(*) AS projected
UNWIND $calls AS k
MATCH (c:Call {id: k.call})
MERGE (s:Session {id: k.session})
MERGE (s)-[:MADE]->(c)
WITH count(*) AS linked
MERGE (meta:Meta {id: 'projection'})
SET meta.reads_seq = $mark
RETURN linked
