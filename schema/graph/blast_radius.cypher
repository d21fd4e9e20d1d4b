// Memories the subject's content may have flowed into, up to __DEPTH__ hops,
// with each path as evidence. __DEPTH__ is replaced by an integer 1..6 from a
// fixed set of prebuilt templates (FalkorDB cannot take variable-length
// bounds as parameters); everything else is a parameter.
UNWIND $ids AS id
MATCH (m:Memory {id: id})
OPTIONAL MATCH p = (m)-[:FLOWED_TO*1..__DEPTH__]->(x:Memory)
RETURN m.id, x.id, x.ns, x.state, length(p),
       [n IN nodes(p) | n.id], [e IN relationships(p) | e.session], [e IN relationships(p) | e.call]
LIMIT $limit
