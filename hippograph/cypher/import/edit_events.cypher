UNWIND $rows AS row
MERGE (e:EditEvent {id: row.id})
SET e = row
RETURN count(e) AS imported
