// New full-text words for memories: keying again (write/migrate.py: rekey), a hard forget
// re-indexing its session (memories.forget).
UNWIND $rows AS row
MATCH (m:Memory {id: row.id})
SET m.ft_terms = row.ft_terms
RETURN count(m) AS updated
