MATCH (t:Tombstone)
WHERE t.namespace = $namespace
RETURN count(t) AS count
