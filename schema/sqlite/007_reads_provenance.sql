-- Provenance routing asks, before a write, what its session, its call and its
-- agent were served in the last window (memgate/gateway/provenance.py): one
-- index per link, so the answer costs the reads of that session, not the table.
CREATE INDEX reads_session ON reads (session_id, seq) WHERE session_id IS NOT NULL;
CREATE INDEX reads_call ON reads (call_id, seq) WHERE call_id IS NOT NULL;
CREATE INDEX reads_agent ON reads (agent_id, seq) WHERE agent_id IS NOT NULL;
