// New full-text words for memories (write/fulltext.py).
UNWIND $rows AS row
MATCH (m:Memory {id: row.id})
SET m.ft_terms = row.ft_terms
RETURN count(m) AS updated
