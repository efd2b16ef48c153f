UNWIND $rows AS row
MERGE (t:Tombstone {id: row.id})
SET t = row
RETURN count(t) AS imported
