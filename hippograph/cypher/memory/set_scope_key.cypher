// The scope key of memories written without one (write/migrate.py: scope_keys).
UNWIND $rows AS row
MATCH (m:Memory {id: row.id})
SET m.scope_key = row.scope_key
RETURN count(m) AS updated
