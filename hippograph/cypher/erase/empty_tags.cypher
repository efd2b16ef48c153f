// Tags of erased memories that no memory carries any longer.
UNWIND $uids AS wanted
MATCH (t:Tag {uid: wanted})
WITH t
WHERE t.namespace = $namespace AND NOT EXISTS { MATCH (t)<-[:HAS_TAG]-(:Memory) }
DETACH DELETE t
RETURN count(*) AS deleted
