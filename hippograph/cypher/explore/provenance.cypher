// Where a memory came from: the episodes (conversation turns) it was derived from, directly or
// through the memories it was derived from, nearest first. $eid: the memory's element id.
// $scopes (null: every scope, as recall's: graph.model.scopes): only through memories it sees.
MATCH (m) WHERE elementId(m) = $eid
MATCH path = (m)-[:DERIVED_FROM*1..4]->(e:Episode)
WHERE e.namespace = $namespace
  AND ($scopes IS NULL OR all(n IN nodes(path)[1..-1] WHERE n.scope_key IN $scopes))
RETURN [n IN nodes(path)[0..-1] | n.id] AS via, e {.*} AS episode
ORDER BY size(via), e.session_id, e.turn_index
LIMIT $limit
