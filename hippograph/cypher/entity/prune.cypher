// Entities whose mentions may be gone: their count read again, and those no memory mentions
// any longer, directly or through an entity merged into them, deleted with their edges; with
// $keep_stated, not those a caller named (relate, defineEntity): they stand without a mention.
UNWIND $uids AS wanted
MATCH (e:Entity {uid: wanted})
WITH e
WHERE e.namespace = $namespace
OPTIONAL MATCH (e)<-[r:MENTIONS]-(:Memory)
WITH e, count(r) AS own
OPTIONAL MATCH (e)<-[:SAME_AS]-(:Entity)<-[q:MENTIONS]-(:Memory)
WITH e, own, count(q) AS merged
SET e.mentions = own
WITH e, own + merged AS left
WHERE left = 0 AND NOT ($keep_stated AND coalesce(e.stated, false))
DETACH DELETE e
RETURN count(*) AS deleted
