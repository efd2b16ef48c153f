MATCH (l:JobLock {name: $job})
WHERE l.holder = $holder
SET l.expires_at = $expires_at, l.heartbeat_at = $now
RETURN count(l) AS renewed
