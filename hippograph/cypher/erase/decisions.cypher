// Decision records about erased memories or made from erased turns keep that a decision was
// made (action, time, ids), not what it was about.
MATCH (d:Decision)
WHERE d.namespace = $namespace
  AND (d.memory_id IN $ids OR d.target_id IN $ids
       OR any(u IN coalesce(d.episode_uids, []) WHERE u IN $uids))
SET d.content = '', d.reason = 'erased', d.erased_at = $now
RETURN count(d) AS scrubbed
