// Whether a one-time migration of the store has completed.
OPTIONAL MATCH (g:Migration {name: $migration})
RETURN g.done_at AS done_at
