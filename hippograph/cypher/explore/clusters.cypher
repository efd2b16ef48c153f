// A namespace's clusters (from the cluster job), largest first, each with its most typical
// members (by membership score) for the explorer to start a neighbourhood from. $scopes (null:
// every scope, as recall's: graph.model.scopes): only clusters and members the caller sees.
MATCH (c:Cluster)
WHERE c.namespace = $namespace
  AND ($scopes IS NULL
       OR EXISTS { MATCH (x:Memory)-[:IN_CLUSTER]->(c) WHERE x.scope_key IN $scopes })
WITH c
ORDER BY c.size DESC, c.id
LIMIT $first
OPTIONAL MATCH (m:Memory)-[r:IN_CLUSTER]->(c)
WHERE $scopes IS NULL OR m.scope_key IN $scopes
WITH c, m, r
ORDER BY r.score DESC, m.id
WITH c, collect(m.id)[0..$members] AS members
RETURN c.id AS id, c.label AS label, c.size AS size, c.updated_at AS updated_at, members
ORDER BY size DESC, id
