UNWIND $rows AS row
MATCH (e:Entity {uid: row.id})
SET e.importance = row.importance, e.pagerank = row.score, e.importance_at = $as_of
RETURN count(e) AS updated
