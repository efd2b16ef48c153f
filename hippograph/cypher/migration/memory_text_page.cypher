// Every memory, a page at a time in id order: what its full-text words and its standing
// condition are made from, and what they are now.
MATCH (m:Memory)
WHERE m.id > $after
WITH m
ORDER BY m.id
LIMIT $limit
RETURN m.id AS id, m.namespace AS namespace, m.content AS content, m.ft_terms AS ft_terms,
       m.applies_when AS applies_when
