MERGE (s:ConsolidationState {key: $key})
WITH s, (s.holder IS NULL OR s.expires_at < $now OR s.holder = $holder) AS free
SET s.holder = CASE WHEN free THEN $holder ELSE s.holder END,
    s.since = CASE WHEN free THEN $now ELSE s.since END,
    s.expires_at = CASE WHEN free THEN $expires_at ELSE s.expires_at END
RETURN free AS acquired, s.holder AS holder, s.since AS since
