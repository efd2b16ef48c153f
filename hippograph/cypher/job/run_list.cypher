MATCH (r:JobRun)
WHERE $job IS NULL OR r.name = $job
RETURN properties(r) AS run
ORDER BY r.started_at DESC
LIMIT $limit
