MATCH (s:ConsolidationState {key: $key})
WHERE s.holder = $holder
SET s.holder = null, s.since = null, s.expires_at = null
RETURN count(s) AS released
