// Touch the lock node first: on Neo4j that SET takes the node's write lock before its holder is
// read, so two runs cannot both see it free (ArcadeDB's MVCC retries the loser instead).
MERGE (s:ConsolidationState {key: $key})
SET s.touched_at = $now
WITH s
WITH s, (s.holder IS NULL OR s.expires_at < $now OR s.holder = $holder) AS free
SET s.holder = CASE WHEN free THEN $holder ELSE s.holder END,
    s.since = CASE WHEN free THEN $now ELSE s.since END,
    s.expires_at = CASE WHEN free THEN $expires_at ELSE s.expires_at END
RETURN free AS acquired, s.holder AS holder, s.since AS since
