MATCH (m:Memory {id: $id})
WHERE m.namespace = $namespace
OPTIONAL MATCH (m)-[:SUPERSEDES*1..20]->(older:Memory)
OPTIONAL MATCH (newer:Memory)-[:SUPERSEDES*1..20]->(m)
WITH m, collect(DISTINCT older) AS olders, collect(DISTINCT newer) AS newers
RETURN [o IN olders | o {.id, .content, .status, .created_at, .updated_at}] AS older,
       [n IN newers | n {.id, .content, .status, .created_at, .updated_at}] AS newer,
       coalesce(m.history, []) AS history
