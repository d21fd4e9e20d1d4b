// One batch of rows from the SQLite `reads` table, and the reads high-water
// mark, in one query: FalkorDB runs a query atomically, so a replayed batch
// never duplicates READ edges. The batch's set-aside reads (JSON, ids and
// reasons only) are kept with the mark, as in project_mark.
// $calls: one list per call, [key, call_id, session, agent, at, [[memory_id,
// at, agent], ...]] (memgate.graph.rows.ReadBatch.groups): lists of primitives
// parse cheaper than a map per read, and the call and its session are merged
// once per call, not once per read (2.3x the links per second).
// Fenced: only a graph whose reads mark is $after takes the batch (no READ edge
// is created otherwise, and nothing is returned), as in project_mark.
// (The rows are chosen by the fence: FalkorDB unwinds a parameter even after a
// WITH ... WHERE that passed no row on.)
OPTIONAL MATCH (fence:Meta {id: 'projection'})
WITH ($after IS NULL OR coalesce(fence.reads_seq, 0) = $after) AS fenced_in
UNWIND (CASE WHEN fenced_in THEN $calls ELSE [] END) AS k
MERGE (c:Call {id: k[0]})
  ON CREATE SET c.call_id = k[1], c.session_id = k[2], c.agent_id = k[3], c.at = k[4]
FOREACH (sid IN CASE WHEN k[2] IS NULL THEN [] ELSE [k[2]] END |
  MERGE (s:Session {id: sid})
  MERGE (s)-[:MADE]->(c))
WITH c, k
UNWIND k[5] AS r
MERGE (m:Memory {id: r[0]})
CREATE (c)-[:READ {at: r[1], agent_id: r[2]}]->(m)
WITH count(*) AS linked
MERGE (meta:Meta {id: 'projection'})
WITH meta, linked, coalesce(meta.set_aside, []) AS kept
WHERE $after IS NULL OR coalesce(meta.reads_seq, 0) = $after
SET meta.reads_seq = $mark,
    meta.set_aside = kept + $aside[0..($keep - size(kept))],
    meta.set_aside_count = coalesce(meta.set_aside_count, 0) + size($aside)
RETURN linked
