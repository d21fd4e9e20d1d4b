// Taint: every memory the writing session had read before the write flowed to
// the written memory. Run after the reads up to this point are projected (the
// projector drains reads before each batch of events).
// $rows: each (memory, session) once (FalkorBackend.apply_events sends a
// batch's later writes of the same memory by the same session to
// project_reflows, after this query).
// The edges already there (a replayed batch) are looked up from the written
// memory's side, once per write: its incoming FLOWED_TO edges are that one
// memory's taint (a few). MERGE checked every (read memory, written memory)
// pair from the read memory's side instead, whose outgoing edges grow with
// every session that read it: 60 % of the query's time on 200k edges.
// The MATCHes before the WITH pin the plan to the indexed lookups.
UNWIND $rows AS w
MATCH (x:Memory {id: w.mid})
MATCH (s:Session {id: w.session})
OPTIONAL MATCH (y:Memory)-[g:FLOWED_TO]->(x) WHERE g.session = w.session
WITH w, x, s, collect(y) AS have
MATCH (s)-[:MADE]->(:Call)-[r:READ]->(m:Memory)
WHERE r.at <= w.at AND m.id <> w.mid AND NOT m IN have
WITH w, x, m, min(r.at) AS first
CREATE (m)-[f:FLOWED_TO {session: w.session, kind: 'session', call: w.call_id, read_at: first, at: w.at}]->(x)
RETURN count(f)
