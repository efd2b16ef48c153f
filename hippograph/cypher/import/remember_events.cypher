UNWIND $rows AS row
MERGE (r:RememberEvent {id: row.id})
SET r = row
RETURN count(r) AS imported
