// The namespace and state of the memories a blast radius walk kept (by index).
UNWIND $ids AS id
MATCH (m:Memory {id: id})
RETURN m.id, m.ns, m.state
