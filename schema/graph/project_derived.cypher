// Promotions: the long-term memory derives from the transient one, and its
// content flowed from it.
UNWIND $rows AS d
MERGE (child:Memory {id: d.child})
MERGE (parent:Memory {id: d.parent})
MERGE (child)-[:DERIVED_FROM]->(parent)
MERGE (parent)-[f:FLOWED_TO {session: ''}]->(child)
  ON CREATE SET f.kind = 'derived', f.at = d.at
RETURN count(f)
