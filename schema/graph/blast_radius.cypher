// One level of the blast radius walk: the FLOWED_TO edges out of the frontier
// memories. The walk (memgate.graph.investigate.walk) asks once per level, at
// most `depth` times, with a frontier it keeps bounded and a LIMIT, so the cost
// follows the memories kept, never the number of paths (a variable-length match
// enumerated paths: 550 ms p95 at depth 3 on a 1M-edge graph). The targets'
// namespace and state are asked at the end, for the memories kept only (in the
// last level's query, blast_last): reading them per edge at every level
// tripled the cost of a level.
// The reply is packed: one row, the number of edges, then each column (start
// id, target id, session, call) as one string, the edges' values joined by
// $fs (a null as $null). Row by row, FalkorDB's compact reply is a [type,
// value] list per cell, ~20k Python lists for a level of 2,000 edges, and
// they lived long enough to reach the oldest GC generation: every few large
// walks paid a full collection (the p99 at 1M edges). One string.join per
// column costs the server less than joining each edge's fields (3.2 vs 5.8 ms
// for 2,600 edges). string.join is FalkorDB's (4.22 in the pinned falkordblite
// 0.11.0); a server by URL without it answers the walk as graph_unavailable.
// Starts from the Memory id index; FLOWED_TO joins memories only.
UNWIND $ids AS id
MATCH (a:Memory {id: id})-[f:FLOWED_TO]->(b)
WITH a, b, f
LIMIT $limit
RETURN count(f),
  string.join(collect(a.id), $fs),
  string.join(collect(b.id), $fs),
  string.join(collect(coalesce(f.session, $null)), $fs),
  string.join(collect(coalesce(f.call, $null)), $fs)
