// The supersession chain through one memory: from the current version (superseded by nothing)
// back to the first, with each replacement's time and reason. Graph view: the `chain` paths.
MATCH (m:Memory {id: $id})
WITH m
WHERE m.namespace = $namespace
MATCH (head:Memory)-[:SUPERSEDES*0..20]->(m)
WHERE NOT EXISTS { MATCH (:Memory)-[:SUPERSEDES]->(head) }
MATCH chain = (head)-[:SUPERSEDES*0..20]->(version:Memory)
WITH chain, version, last(relationships(chain)) AS replaced
RETURN length(chain) AS step, version.id AS id, version.status AS status,
       version.content AS content, replaced.at AS superseded_at, replaced.reason AS reason, chain
ORDER BY step, id
