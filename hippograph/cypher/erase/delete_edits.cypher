UNWIND $ids AS wanted
MATCH (e:EditEvent {id: wanted})
WITH e
WHERE e.namespace = $namespace
DELETE e
RETURN count(*) AS deleted
