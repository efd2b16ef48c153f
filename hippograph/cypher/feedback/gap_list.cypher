MATCH (g:Gap)
WHERE g.namespace = $namespace
RETURN g.id AS id, g.context AS context, g.best_score AS best_score, g.count AS count,
       g.first_at AS first_at, g.last_at AS last_at
ORDER BY g.last_at DESC
LIMIT $limit
