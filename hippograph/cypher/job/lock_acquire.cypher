// Touch the lock node first: on Neo4j the SET takes the node's write lock before its holder is
// read, so two workers cannot both see it free (ArcadeDB's MVCC retries the loser instead).
MERGE (l:JobLock {name: $job})
SET l.touched_at = $now
WITH l
WITH l, (l.holder IS NULL OR l.expires_at IS NULL OR l.expires_at < $now OR l.holder = $holder
         OR $force) AS free, l.holder AS previous
SET l.holder = CASE WHEN free THEN $holder ELSE l.holder END,
    l.acquired_at = CASE WHEN free THEN $now ELSE l.acquired_at END,
    l.expires_at = CASE WHEN free THEN $expires_at ELSE l.expires_at END
RETURN free AS acquired, l.holder AS holder, l.acquired_at AS since, previous
