UNWIND $rows AS row
MATCH (m:Memory {id: row.id})
SET m.importance = row.importance, m.pagerank = row.score, m.importance_at = $as_of
RETURN count(m) AS updated
