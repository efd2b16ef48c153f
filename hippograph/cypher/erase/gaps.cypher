// Every gap of the namespace (recall contexts that found nothing): an agent's context is often
// the user's message word for word.
MATCH (g:Gap)
WHERE g.namespace = $namespace
RETURN g.id AS id, g.context AS context
