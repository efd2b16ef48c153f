// Words of $namespace's vocabulary that no memory holds any longer (after a hard forget).
UNWIND $uids AS uid
MATCH (w:Word {uid: uid})
WITH w
WHERE w.namespace = $namespace
DETACH DELETE w
RETURN count(*) AS removed
