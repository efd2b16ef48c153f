// Runs still open whose last write is older than $cutoff: abandoned by their agent.
MATCH (r:Run)
WHERE r.namespace = $namespace AND r.ended IS NULL AND r.touched < $cutoff
RETURN r.id AS id
LIMIT $limit
