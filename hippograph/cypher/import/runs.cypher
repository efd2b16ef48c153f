UNWIND $rows AS row
MERGE (r:Run {id: row.id})
SET r = row
RETURN count(r) AS imported
