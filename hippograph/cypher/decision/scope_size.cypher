// How many active memories the given scopes of a namespace hold, counted up to $limit (the
// write path only needs to know whether an exact neighbour search in process is cheaper).
MATCH (m:Memory)
WHERE m.namespace = $namespace AND m.status = 'active' AND m.scope_key IN $scopes
WITH m LIMIT $limit
RETURN count(m) AS count
