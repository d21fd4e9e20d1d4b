// One batch of rows from the SQLite `reads` table, and the reads high-water
// mark, in one query: FalkorDB runs a query atomically, so a replayed batch
// never duplicates READ edges. The batch's set-aside reads (JSON, ids and
// reasons only) are kept with the mark, as in project_mark.
// Fenced: only a graph whose reads mark is $after takes the batch (no READ edge
// is created otherwise, and nothing is returned), as in project_mark.
// (The rows are chosen by the fence: FalkorDB unwinds a parameter even after a
// WITH ... WHERE that passed no row on.)
OPTIONAL MATCH (fence:Meta {id: 'projection'})
WITH ($after IS NULL OR coalesce(fence.reads_seq, 0) = $after) AS fenced_in
UNWIND (CASE WHEN fenced_in THEN $rows ELSE [] END) AS r
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
WITH meta, linked, coalesce(meta.set_aside, []) AS kept
WHERE $after IS NULL OR coalesce(meta.reads_seq, 0) = $after
SET meta.reads_seq = $mark,
    meta.set_aside = kept + $aside[0..($keep - size(kept))],
    meta.set_aside_count = coalesce(meta.set_aside_count, 0) + size($aside)
RETURN linked
