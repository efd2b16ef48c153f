MATCH (d:Decision)
WHERE d.namespace = $namespace AND (d.memory_id = $id OR d.target_id = $id)
RETURN properties(d) AS decision
ORDER BY d.at, d.id
LIMIT $limit
