// Each RememberEvent keeps the ids its items are replayed under (set once, at the first rebuild).
UNWIND $rows AS row
MATCH (r:RememberEvent {id: row.id})
WITH r, row
WHERE r.namespace = $namespace
SET r.ids = row.ids
RETURN count(r) AS kept
