// The lock was free, so any run of this job still marked running has lost its holder.
MATCH (r:JobRun {name: $job})
WHERE r.status = 'running' AND r.holder <> $holder
SET r.status = 'abandoned', r.ended_at = $now,
    r.error = 'its worker stopped without finishing (lock lease expired)'
RETURN count(r) AS abandoned
