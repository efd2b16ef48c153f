MATCH (r:JobRun {id: $id})
RETURN properties(r) AS run
