MATCH (s:ConsolidationState {key: $key})
WHERE s.holder = $holder
SET s.expires_at = $expires_at
RETURN count(s) AS renewed
