// The steps of the runs $ids (each names its run and number: import links them again).
UNWIND $ids AS wanted
MATCH (:Run {id: wanted})-[:HAS_STEP]->(s:Step)
RETURN properties(s) AS props
ORDER BY s.run_id, s.n
