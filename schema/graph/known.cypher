// Which of these memories the graph holds (a BFS from a memory without
// outgoing FLOWED_TO edges answers no row at all).
UNWIND $ids AS id
MATCH (m:Memory {id: id})
RETURN m.id
