// Who wrote each memory: (Session)-[:MADE]->(Call)-[:WROTE]->(Memory).
UNWIND $rows AS w
MERGE (c:Call {id: w.call})
  ON CREATE SET c.call_id = w.call_id, c.session_id = w.session, c.agent_id = w.agent, c.at = w.at
SET c.tool = coalesce(c.tool, w.tool)
MERGE (m:Memory {id: w.mid})
MERGE (c)-[e:WROTE]->(m)
  ON CREATE SET e.at = w.at
SET e.last = w.at
WITH c, w WHERE w.session IS NOT NULL
MERGE (s:Session {id: w.session})
MERGE (s)-[:MADE]->(c)
RETURN count(c)
