// Memories the subject's content may have flowed into, up to __DEPTH__ hops:
// a breadth-first walk over FLOWED_TO (cost follows what is reached, where a
// variable-length path pattern enumerates every path: 17 ms vs 1 ms at depth
// 3 on a 20k-edge graph). The BFS tree's edges are the evidence: the caller
// rebuilds each memory's shortest path from them. __DEPTH__ is replaced by an
// integer 1..6 from a fixed set of prebuilt templates; everything else is a
// parameter.
UNWIND $ids AS id
MATCH (m:Memory {id: id})
CALL algo.BFS(m, __DEPTH__, 'FLOWED_TO') YIELD nodes, edges
RETURN m.id,
       [n IN nodes | [n.id, n.ns, n.state]],
       [e IN edges | [startNode(e).id, endNode(e).id, e.session, e.call]]
