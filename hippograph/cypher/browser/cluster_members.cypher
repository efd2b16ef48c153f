// A cluster's members, the most typical first (score: the clustering's membership strength).
MATCH (c:Cluster {id: $cluster_id})
WITH c
WHERE c.namespace = $namespace
MATCH (m:Memory)-[r:IN_CLUSTER]->(c)
RETURN c.label AS cluster, r.score AS score, m.id AS id, m.status AS status,
       m.content AS content, r, c, m
ORDER BY score DESC, id
LIMIT $limit
