UNWIND $keys AS key
MATCH (m:Memory {dedup_key: key})
WHERE m.namespace = $namespace
RETURN key, m.id AS id
