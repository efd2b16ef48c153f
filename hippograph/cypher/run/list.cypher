// $session null: every session's runs. Newest first.
MATCH (r:Run)
WHERE r.namespace = $namespace AND ($session IS NULL OR r.session = $session)
RETURN r {.*, task_embedding: null} AS run
ORDER BY r.started DESC, r.id
LIMIT $first
