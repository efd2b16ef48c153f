// How many memories (of every namespace: the index is shared) the full-text index matches for
// one word, counted up to $cap (beyond it only "too many to afford" matters).
CALL db.index.fulltext.queryNodes($fulltext_index, $term, {limit: $cap}) YIELD node
RETURN count(node) AS df
