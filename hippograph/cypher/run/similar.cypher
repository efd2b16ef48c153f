// Exact nearest runs of the namespace by their task's embedding ($success null: any outcome).
MATCH (r:Run)
WHERE r.namespace = $namespace AND r.task_embedding IS NOT NULL
  AND ($success IS NULL OR r.success = $success)
WITH r, $cosine_scale * vector.similarity.cosine(r.task_embedding, $embedding) + $cosine_shift
        AS score
ORDER BY score DESC
LIMIT $k
RETURN r {.*, task_embedding: null} AS run, score
