// The namespace's cluster membership as this generation found it: every edge created before
// it, including those this run (or the interrupted run it resumes) already stamped with its
// generation, but none it created, so a resumed run computes the same cluster ids. Walked from
// the namespace's Cluster nodes, so a memory's other edges are never touched.
MATCH (c:Cluster)
WHERE c.namespace = $namespace
MATCH (c)<-[r:IN_CLUSTER]-(m:Memory)
WHERE coalesce(r.first_generation, r.generation, '') <> $generation
RETURN m.id AS id, c.id AS cluster
