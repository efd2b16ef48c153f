// Archived without a tombstone: stating the fact again later stores it afresh.
UNWIND $ids AS wanted
MATCH (m:Memory {id: wanted})
WHERE m.status = 'active' AND coalesce(m.strength, 1) <= 1 AND m.confirmed_at IS NULL
SET m.status = 'archived', m.archived_at = $as_of, m.updated_at = $as_of,
    m.archive_reason = 'speculative: not confirmed in time', m.dedup_key = null
RETURN count(m) AS archived
