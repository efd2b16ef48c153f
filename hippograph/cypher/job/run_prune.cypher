MATCH (r:JobRun {name: $job})
WHERE r.status <> 'running' AND r.started_at < $before
WITH r
LIMIT $limit
DELETE r
RETURN count(*) AS pruned
