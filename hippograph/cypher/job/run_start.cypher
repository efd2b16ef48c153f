CREATE (r:JobRun {id: $id, name: $job, status: 'running', holder: $holder, trigger: $trigger,
                  scope: $scope, started_at: $now, as_of: $as_of, done: 0, total: 0,
                  counts: '{}'})
SET r.cursor = $cursor, r.resumed_from = $resumed_from
RETURN r.id AS id
