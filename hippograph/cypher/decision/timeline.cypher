// WITH before each namespace check: in one MATCH ... WHERE, ArcadeDB looks the node up by its
// namespace index instead of its id (100k memories: ~250 ms against ~1.5 ms).
MATCH (m:Memory {id: $id})
WITH m
WHERE m.namespace = $namespace
OPTIONAL MATCH (m)-[:SUPERSEDES*1..64]->(older:Memory)
OPTIONAL MATCH (newer:Memory)-[:SUPERSEDES*1..64]->(m)
WITH m, collect(DISTINCT older) AS olders, collect(DISTINCT newer) AS newers
RETURN [o IN olders | o {.id, .content, .status, .created_at, .updated_at}] AS older,
       [n IN newers | n {.id, .content, .status, .created_at, .updated_at}] AS newer,
       coalesce(m.history, []) AS history
