// One hop of the explorer's neighbourhood: the nodes next to the frontier over the edges it
// shows, at most $fan_out per frontier node, the strongest edges (weight x confidence) first.
// Tags, clusters and episodes carry a namespace too, so every node reached is checked; a
// memory only when its status is one of $statuses and the caller sees its scope ($scopes, null:
// every scope, as recall's: graph.model.scopes). $frontier holds element ids (direct
// lookups) of nodes already known to be of the namespace.
UNWIND $frontier AS eid
MATCH (a) WHERE elementId(a) = eid
MATCH (a)-[r:HAS_TAG|IN_CLUSTER|DERIVED_FROM|RELATES_TO|SUPERSEDES|CONTRADICTS]-(b)
WHERE b.namespace = $namespace
  AND (b.memory_type IS NULL
       OR (b.status IN $statuses AND ($scopes IS NULL OR b.scope_key IN $scopes)))
WITH eid, b, coalesce(r.weight, 1.0) * coalesce(r.confidence, 1.0) AS strength
ORDER BY strength DESC
WITH eid, collect(b)[0..$fan_out] AS near
UNWIND near AS b
RETURN elementId(b) AS eid, labels(b) AS labels, b {.*, embedding: null, ft_terms: null, centroid: null} AS node
