// One level of the blast radius walk: the FLOWED_TO edges out of the frontier
// memories, with the namespace and state of each target. The walk
// (memgate.graph.investigate.walk) asks once per level, at most `depth` times,
// with a frontier it keeps bounded and a LIMIT, so the cost follows the memories
// kept, never the number of paths (a variable-length match enumerated paths:
// 550 ms p95 at depth 3 on a 1M-edge graph). Starts from the Memory id index.
UNWIND $ids AS id
MATCH (a:Memory {id: id})-[f:FLOWED_TO]->(b:Memory)
RETURN a.id, b.id, f.session, f.call, b.ns, b.state
LIMIT $limit
