// The strength SET comes first: on Neo4j it takes the node's write lock, so the breadcrumb list
// read after it cannot be overwritten by a concurrent reinforcement (a lost update).
UNWIND $rows AS row
MATCH (m:Memory {id: row.id})
WHERE m.namespace = $namespace
SET m.strength = coalesce(m.strength, 1) + row.times,
    m.updated_at = $now,
    m.last_reinforced_at = $now
WITH m, row, coalesce(m.reinforcements, []) + row.crumbs AS crumbs
SET m.reinforcements = CASE WHEN size(crumbs) > 50 THEN crumbs[size(crumbs) - 50..] ELSE crumbs END
RETURN m.id AS id
