// Readers of several memories (a rollback's changes), oldest first.
UNWIND $ids AS id
MATCH (m:Memory {id: id})<-[r:READ]-(c:Call)
RETURN c.session_id, c.call_id, coalesce(r.agent_id, c.agent_id), c.tool, r.at, m.id
ORDER BY r.at
LIMIT $limit
