// A remember's erased items replaced by a marker, its ids kept (rebuild replays the others
// under the ids they had).
UNWIND $rows AS row
MATCH (r:RememberEvent {id: row.id})
WITH r, row
WHERE r.namespace = $namespace
SET r.items = row.items, r.ids = row.ids
RETURN count(r) AS scrubbed
