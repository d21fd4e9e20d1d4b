// The latest item of each memory in a batch of log events (state changes
// included, so investigations can filter on state).
UNWIND $rows AS r
MERGE (m:Memory {id: r.id})
SET m.ns = r.ns, m.state = r.state, m.trust = r.trust, m.source = r.source, m.pool = r.pool,
    m.session_id = r.session, m.call_id = r.call_id, m.agent_id = r.agent,
    m.created = r.created, m.updated = r.updated, m.version = r.version
RETURN count(m)
