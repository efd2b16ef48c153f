// The standing-instruction condition of memories (write/standing.py: backfill), derived from
// their content: applies_when and the standing flag the namespace's rules are found by.
UNWIND $rows AS row
MATCH (m:Memory {id: row.id})
SET m.applies_when = row.applies_when, m.standing = row.standing
RETURN count(m) AS updated
