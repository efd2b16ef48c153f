// A namespace's clusters (from the cluster job), largest first: their ids for cluster_members.
MATCH (c:Cluster)
WHERE c.namespace = $namespace
RETURN c.id AS id, c.label AS label, c.size AS size, c.updated_at AS updated_at
ORDER BY size DESC, id
