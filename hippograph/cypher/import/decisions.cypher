UNWIND $rows AS row
MERGE (d:Decision {id: row.id})
SET d = row
RETURN count(d) AS imported
