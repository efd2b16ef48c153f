MATCH (l:JobLock {name: $job})
WHERE l.holder = $holder
SET l.holder = null, l.expires_at = null, l.released_at = $now
RETURN count(l) AS released
