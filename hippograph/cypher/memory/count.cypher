MATCH (m:Memory)
WHERE m.namespace = $namespace AND m.status IN $statuses
RETURN count(m) AS count
