-- The reads an agent made without a session, on their own (provenance routing
-- links them to the agent's writes): an agent id shared by thousands of sessions
-- must not make every check walk all of that agent's reads (reads_agent, 007).
CREATE INDEX reads_agent_alone ON reads (agent_id, seq) WHERE session_id IS NULL;
