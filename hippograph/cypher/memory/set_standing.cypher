// The standing-instruction condition of memories (write/migrate.py: standing), derived from
// their content: applies_when, and standing_in (their namespace) that the namespace's rules
// are found by.
UNWIND $rows AS row
MATCH (m:Memory {id: row.id})
SET m.applies_when = row.applies_when, m.standing_in = row.standing_in
RETURN count(m) AS updated
