MATCH (l:JobLock {name: $job})
RETURN l.holder AS holder, l.acquired_at AS since, l.expires_at AS expires_at
