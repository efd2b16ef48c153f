MATCH (e:EditEvent)
WHERE e.namespace = $namespace
RETURN e.id AS id, e.at AS at, e.kind AS kind, e.args AS args
ORDER BY e.at, e.id
