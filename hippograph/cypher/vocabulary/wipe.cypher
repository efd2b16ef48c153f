// Every word of $namespace's vocabulary, in batches (a namespace deleted or its vocabulary
// rebuilt).
MATCH (w:Word)
WHERE w.namespace = $namespace
WITH w LIMIT $limit
DETACH DELETE w
RETURN count(*) AS deleted
