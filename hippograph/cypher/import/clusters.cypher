UNWIND $rows AS row
MERGE (c:Cluster {id: row.id})
SET c = row
RETURN count(c) AS imported
