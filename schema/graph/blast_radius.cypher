// Memories the subject's content may have flowed into, up to __DEPTH__ hops.
// First the distinct memories reachable over FLOWED_TO (no path is returned,
// so nothing is enumerated per path), then the FLOWED_TO edges among them:
// the caller rebuilds each memory's shortest path from those edges as
// evidence. Both steps start from index lookups, so the cost follows what is
// reached, not the size of the graph (algo.BFS cost 12 ms at depth 1 on a
// 1M-edge graph; path enumeration grows with every path).
// __DEPTH__ is replaced by an integer 1..6 from a fixed set of prebuilt
// templates (FalkorDB cannot take variable-length bounds as parameters);
// everything else is a parameter.
UNWIND $ids AS id
MATCH (m:Memory {id: id})
OPTIONAL MATCH (m)-[:FLOWED_TO*1..__DEPTH__]->(x:Memory)
WITH m, collect(DISTINCT x) AS xs
WITH m, xs, [n IN xs | n.id] AS reached
UNWIND [m] + xs AS a
OPTIONAL MATCH (a)-[f:FLOWED_TO]->(b:Memory)
WHERE b.id IN reached
WITH m, xs, collect([a.id, b.id, f.session, f.call]) AS edges
RETURN m.id, [n IN xs | [n.id, n.ns, n.state]], edges
