// One breadth-first hop from the frontier over weighted edges, fan-out bounded per node:
// RELATES_TO (weight x confidence, above a floor), shared tags (only tags carried by at most
// $max_tag_degree memories), shared clusters (size-bounded), SUPERSEDES, and the rest.
UNWIND $frontier AS src
MATCH (a:Memory {id: src})-[r:RELATES_TO]-(m:Memory)
WHERE m.namespace = $namespace AND m.status IN $statuses
  AND coalesce(r.confidence, 1.0) >= $edge_floor
  AND (m.scope = 'global' OR (m.scope = 'project' AND m.project = $project)
       OR (m.scope = 'session' AND m.session_id = $session_id))
WITH src, m, coalesce(r.weight, 1.0) * coalesce(r.confidence, 1.0) AS w, coalesce(r.kind, '') AS via
ORDER BY w DESC
WITH src, collect({id: m.id, w: w, via: via})[0..$fan_out] AS top
UNWIND top AS hit
RETURN src, hit.id AS dst, 'RELATES_TO' AS type, hit.w AS w, hit.via AS via, 0 AS degree
UNION ALL
UNWIND $frontier AS src
MATCH (a:Memory {id: src})-[:HAS_TAG]->(t:Tag)
WHERE t.count > 1 AND t.count <= $max_tag_degree
MATCH (t)<-[:HAS_TAG]-(m:Memory)
WHERE m.id <> src AND m.namespace = $namespace AND m.status IN $statuses
  AND (m.scope = 'global' OR (m.scope = 'project' AND m.project = $project)
       OR (m.scope = 'session' AND m.session_id = $session_id))
WITH src, m, t ORDER BY t.count ASC
WITH src, collect({id: m.id, via: t.name, degree: t.count})[0..$fan_out] AS top
UNWIND top AS hit
RETURN src, hit.id AS dst, 'HAS_TAG' AS type, 1.0 AS w, hit.via AS via, hit.degree AS degree
UNION ALL
UNWIND $frontier AS src
MATCH (a:Memory {id: src})-[:IN_CLUSTER]->(c:Cluster)
WHERE c.size > 1 AND c.size <= $max_cluster_size
MATCH (c)<-[:IN_CLUSTER]-(m:Memory)
WHERE m.id <> src AND m.namespace = $namespace AND m.status IN $statuses
  AND (m.scope = 'global' OR (m.scope = 'project' AND m.project = $project)
       OR (m.scope = 'session' AND m.session_id = $session_id))
WITH src, collect({id: m.id, via: c.id, degree: c.size})[0..$fan_out] AS top
UNWIND top AS hit
RETURN src, hit.id AS dst, 'IN_CLUSTER' AS type, 1.0 AS w, hit.via AS via, hit.degree AS degree
UNION ALL
UNWIND $frontier AS src
MATCH (a:Memory {id: src})-[r:SUPERSEDES|CONTRADICTS|DERIVED_FROM]-(m:Memory)
WHERE m.namespace = $namespace AND m.status IN $statuses
  AND (m.scope = 'global' OR (m.scope = 'project' AND m.project = $project)
       OR (m.scope = 'session' AND m.session_id = $session_id))
WITH src, collect({id: m.id, type: type(r)})[0..$fan_out] AS top
UNWIND top AS hit
RETURN src, hit.id AS dst, hit.type AS type, 1.0 AS w, '' AS via, 0 AS degree
