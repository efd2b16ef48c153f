UNWIND $rows AS row
CREATE (d:Decision)
SET d = row
RETURN count(d) AS recorded
