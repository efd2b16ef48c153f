MERGE (g:Gap {key: $key})
ON CREATE SET g.id = $id, g.namespace = $namespace, g.context = $context, g.first_at = $now,
              g.count = 0
SET g.count = g.count + 1, g.last_at = $now, g.best_score = $best_score
RETURN g.id AS id, g.count AS count
