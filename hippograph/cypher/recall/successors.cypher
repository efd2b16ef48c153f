// The active memory that (transitively) replaced each superseded one.
UNWIND $ids AS old_id
MATCH (new:Memory)-[:SUPERSEDES*1..8]->(old:Memory {id: old_id})
WHERE new.namespace = $namespace AND new.status = 'active'
RETURN old_id, new.id AS new_id
