MATCH (r:JobRun {name: $job})
WHERE r.scope = $scope
RETURN properties(r) AS run
ORDER BY r.started_at DESC
LIMIT 1
