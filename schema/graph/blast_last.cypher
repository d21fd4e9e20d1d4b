// The last level of a blast radius walk, with what the walk needs at the end in
// the same round trip: the FLOWED_TO edges out of the frontier with their
// targets' state and namespace (as blast_radius, plus two columns), and the
// state and namespace of the memories kept at the earlier levels ($described,
// the 'memories' row: their ids in the first column). One query fewer than
// blast_radius + blast_memories: a depth 3 walk is 3 round trips, not 4, and
// cheaper on the server too (2,600 edges and 312 memories: 4.1 ms vs 2.7 +
// 1.9 ms for the two queries, the second describing 1,000 memories).
// Packed as blast_radius is: one row per part, each column one string.
UNWIND $ids AS id
MATCH (a:Memory {id: id})-[f:FLOWED_TO]->(b)
WITH a, b, f
LIMIT $limit
RETURN 'edges' AS part, count(f) AS n,
  string.join(collect(a.id), $fs) AS starts,
  string.join(collect(b.id), $fs) AS targets,
  string.join(collect(coalesce(f.session, $null)), $fs) AS sessions,
  string.join(collect(coalesce(f.call, $null)), $fs) AS calls,
  string.join(collect(coalesce(b.state, $null)), $fs) AS states,
  string.join(collect(string.join(coalesce(b.ns, []), $ps)), $fs) AS namespaces
UNION ALL
UNWIND $described AS id
MATCH (m:Memory {id: id})
RETURN 'memories' AS part, count(m) AS n,
  string.join(collect(m.id), $fs) AS starts,
  '' AS targets,
  '' AS sessions,
  '' AS calls,
  string.join(collect(coalesce(m.state, $null)), $fs) AS states,
  string.join(collect(string.join(coalesce(m.ns, []), $ps)), $fs) AS namespaces
