UNWIND $rows AS row
MERGE (e:Episode {uid: row.uid})
SET e = row
RETURN count(e) AS imported
