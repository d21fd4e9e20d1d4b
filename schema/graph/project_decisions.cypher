// Guard decisions (`guard_decided` events): (Session)-[:MADE]->(Call)-[:DECIDED]->(Decision).
// Every decision is its own Decision node, keyed by its log seq (an ask, then the
// reviewer's answer); the Call keeps its latest (rows come in seq order).
UNWIND $rows AS d
MERGE (c:Call {id: d.call})
  ON CREATE SET c.call_id = d.call_id, c.session_id = d.session, c.agent_id = d.agent, c.at = d.at
SET c.tool = coalesce(c.tool, d.tool), c.decision = d.decision, c.layer = d.layer, c.seq = d.seq
MERGE (x:Decision {seq: d.seq})
  ON CREATE SET x.decision = d.decision, x.layer = d.layer, x.tool = d.tool, x.at = d.at,
    x.warn = d.warn, x.actor = d.actor, x.ask_id = d.ask_id
MERGE (c)-[:DECIDED]->(x)
WITH c, d WHERE d.session IS NOT NULL
MERGE (s:Session {id: d.session})
MERGE (s)-[:MADE]->(c)
RETURN count(c)
