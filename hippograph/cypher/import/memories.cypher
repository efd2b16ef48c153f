UNWIND $rows AS row
MERGE (m:Memory {id: row.id})
SET m = row
RETURN count(m) AS imported
