MATCH (r:RememberEvent)
WHERE r.namespace = $namespace
RETURN r.id AS id, r.at AS at, r.items AS items, r.ids AS ids
ORDER BY r.at, r.id
