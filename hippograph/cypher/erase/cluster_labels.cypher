// A cluster's label is made of its members' words: cleared until the next clustering run.
UNWIND $ids AS wanted
MATCH (c:Cluster {id: wanted})
WITH c
WHERE c.namespace = $namespace
SET c.label = null
RETURN count(c) AS cleared
