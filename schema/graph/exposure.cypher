// Every memory that carried a sensitive value (by fingerprint), with the call
// that wrote it, and every call that read one of them.
MATCH (v:Value {fp: $fp})<-[:CONTAINS]-(m:Memory)
OPTIONAL MATCH (w:Call)-[:WROTE]->(m)
RETURN DISTINCT 'contains' AS relation, m.id AS memory, m.ns AS ns, m.state AS state,
       w.session_id AS session, w.call_id AS call
LIMIT $limit
UNION ALL
MATCH (v:Value {fp: $fp})<-[:CONTAINS]-(m:Memory)<-[:READ]-(c:Call)
RETURN DISTINCT 'read' AS relation, m.id AS memory, m.ns AS ns, m.state AS state,
       c.session_id AS session, c.call_id AS call
LIMIT $limit
