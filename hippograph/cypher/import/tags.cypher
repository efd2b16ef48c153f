UNWIND $rows AS row
MERGE (t:Tag {uid: row.uid})
SET t = row
RETURN count(t) AS imported
