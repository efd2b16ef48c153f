UNWIND $rows AS row
MERGE (e:Entity {uid: row.uid})
SET e = row
RETURN count(e) AS imported
