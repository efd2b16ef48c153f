UNWIND $ids AS wanted
MATCH (t:Tombstone {memory_id: wanted})
WHERE t.namespace = $namespace
RETURN DISTINCT wanted AS id
