// How many active memories of $namespace hold one word ($term, keyed by the namespace: the
// index hands over this namespace's postings only), counted up to $cap (beyond a posting
// budget only "too many" matters).
CALL db.index.fulltext.queryNodes($fulltext_index, $term) YIELD node
WITH node
WHERE node.namespace = $namespace AND node.status = 'active'
WITH node LIMIT $cap
RETURN count(node) AS df
