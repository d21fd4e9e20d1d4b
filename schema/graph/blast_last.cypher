// The last level of a blast radius walk, with what the walk needs at the end in
// the same round trip: the FLOWED_TO edges out of the frontier with their
// targets' namespace and state (as blast_radius, plus b.ns and b.state), and the
// namespace and state of the memories kept at the earlier levels ($described,
// rows without a target). One query fewer than blast_radius + blast_memories:
// a depth 3 walk is 3 round trips, not 4 (under load each costs a wake-up of
// the server and of the client).
UNWIND $ids AS id
MATCH (a:Memory {id: id})-[f:FLOWED_TO]->(b)
RETURN a.id AS a, b.id AS b, f.session AS session, f.call AS call, b.ns AS ns, b.state AS state
LIMIT $limit
UNION ALL
UNWIND $described AS id
MATCH (m:Memory {id: id})
RETURN m.id AS a, null AS b, null AS session, null AS call, m.ns AS ns, m.state AS state
