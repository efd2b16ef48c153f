// Active procedures distilled from earlier successful runs that took the same path
// ($key), with the best task similarity of those runs to this one's.
MATCH (r:Run)
WHERE r.namespace = $namespace AND r.path_key = $key AND r.id <> $run_id AND r.success = true
MATCH (m:Memory)-[:DERIVED_FROM]->(r)
WHERE m.memory_type = 'procedure' AND m.status = 'active'
WITH m, max($cosine_scale * vector.similarity.cosine(r.task_embedding, $embedding)
            + $cosine_shift) AS similarity
WHERE similarity >= $min_similarity
RETURN m.id AS id, m.content AS content, similarity
ORDER BY similarity DESC, id
