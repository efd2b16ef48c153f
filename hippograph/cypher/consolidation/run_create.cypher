CREATE (r:ConsolidationRun)
SET r = $run
RETURN r.id AS id
