UNWIND $uids AS wanted
MATCH (e:Episode {uid: wanted})
WITH e
WHERE e.namespace = $namespace
DETACH DELETE e
RETURN count(*) AS deleted
