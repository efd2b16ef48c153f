UNWIND $rows AS row
CREATE (m:Memory)
SET m = row
RETURN m.id AS id
