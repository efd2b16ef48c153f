// The memories of the namespace a caller with the scope keys $scopes does not see (as recall's:
// graph.model.scopes): a scoped export leaves them, and every line naming them, out.
MATCH (m:Memory)
WHERE m.namespace = $namespace AND NOT coalesce(m.scope_key, '') IN $scopes
RETURN m.id AS id
