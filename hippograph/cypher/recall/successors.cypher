// The active memory that (transitively) replaced each superseded one; anchored on the old
// memory so the engine expands from a known node instead of scanning for heads.
UNWIND $ids AS old_id
MATCH (old:Memory {id: old_id})
WHERE old.namespace = $namespace
MATCH (old)<-[:SUPERSEDES*1..64]-(new:Memory)
WHERE new.status = 'active'
RETURN old_id, new.id AS new_id, elementId(new) AS new_eid
