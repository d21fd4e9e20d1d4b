// One level of the blast radius walk: the FLOWED_TO edges out of the frontier
// memories. The walk (memgate.graph.investigate.walk) asks once per level, at
// most `depth` times, with a frontier it keeps bounded and a LIMIT, so the cost
// follows the memories kept, never the number of paths (a variable-length match
// enumerated paths: 550 ms p95 at depth 3 on a 1M-edge graph). The targets'
// namespace and state are asked once at the end, for the memories kept only
// (blast_memories): reading them per edge tripled the cost of a level.
// Starts from the Memory id index; FLOWED_TO joins memories only.
UNWIND $ids AS id
MATCH (a:Memory {id: id})-[f:FLOWED_TO]->(b)
RETURN a.id, b.id, f.session, f.call
LIMIT $limit
