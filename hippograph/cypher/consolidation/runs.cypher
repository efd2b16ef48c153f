MATCH (r:ConsolidationRun)
WHERE $scope IS NULL OR r.scope = $scope
RETURN properties(r) AS run
ORDER BY r.started_at DESC
LIMIT $limit
