// Calls and sessions that read a memory, oldest first. One row with a null
// call when the memory is known and nobody read it (in the window).
MATCH (m:Memory {id: $id})
OPTIONAL MATCH (m)<-[r:READ]-(c:Call)
WHERE ($since IS NULL OR r.at >= $since) AND ($until IS NULL OR r.at <= $until)
RETURN c.session_id, c.call_id, coalesce(r.agent_id, c.agent_id), c.tool, r.at, m.id
ORDER BY r.at
LIMIT $limit
