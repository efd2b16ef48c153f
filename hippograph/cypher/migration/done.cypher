// A one-time migration of the store completed.
MERGE (g:Migration {name: $migration})
SET g.done_at = $now
RETURN g.name AS name
