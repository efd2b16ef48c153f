// One hop of the supersession chains: for each memory, the memory that superseded it last
// (superseded_by) and every memory with a SUPERSEDES edge to it (imports may carry only edges).
UNWIND $ids AS memory_id
MATCH (m:Memory {id: memory_id})
WITH m
WHERE m.namespace = $namespace
OPTIONAL MATCH (newer:Memory)-[:SUPERSEDES]->(m)
RETURN m.id AS id, m.superseded_by AS superseded_by, collect(newer.id) AS newer
