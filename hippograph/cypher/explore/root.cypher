// The memory a neighbourhood or a provenance starts from. An id of another namespace finds
// nothing, exactly like a missing one. WITH before the namespace check: in one MATCH ... WHERE,
// ArcadeDB looks the node up by its namespace index instead of its id. $scopes (null: every
// scope): the scope keys the caller sees, as recall's (graph.model.scopes).
MATCH (m:Memory {id: $id})
WITH m
WHERE m.namespace = $namespace AND ($scopes IS NULL OR m.scope_key IN $scopes)
RETURN elementId(m) AS eid, labels(m) AS labels, m {.*, embedding: null, ft_terms: null} AS node
