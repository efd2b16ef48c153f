// How many active memories of $namespace the full-text index matches for one word, counted up to
// $cap (beyond a posting budget only "too many" matters). The index is shared by every
// namespace: it hands over every namespace's postings and only this namespace's are counted
// (no limit on the index: one would cut the count by other namespaces' volume).
CALL db.index.fulltext.queryNodes($fulltext_index, $term) YIELD node
WITH node
WHERE node.namespace = $namespace AND node.status = 'active'
WITH node LIMIT $cap
RETURN count(node) AS df
