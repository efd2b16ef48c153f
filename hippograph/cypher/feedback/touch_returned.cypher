// Diagnostics only: how often and when recalls returned a memory. Ranking, decay and
// consolidation never read these (being returned is not being used).
// $rows: [{id, times}], times the recalls (coalesced) that returned the memory.
UNWIND $rows AS row
MATCH (m:Memory {id: row.id})
WITH m, row
WHERE m.namespace = $namespace
SET m.returned_count = coalesce(m.returned_count, 0) + row.times, m.last_returned_at = $now
RETURN count(m) AS touched
