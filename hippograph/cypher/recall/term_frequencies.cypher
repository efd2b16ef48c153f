// How many memories of $namespace with a status in $statuses hold each of $terms (words keyed by
// the namespace: the index hands over this namespace's postings only), one row per term, each
// counted up to $cap (recall: the dialect's posting budget + 1, beyond which only "too many"
// matters; forgetting: 1, whether any memory still holds the word).
// The count runs in a subquery, once per term, on both backends: ArcadeDB's procedure CALL
// after UNWIND yields the rows of the last input row only. `CALL (term)` is the variable scope
// clause Neo4j 5.23+ asks for (the importing WITH is deprecated; Cypher manual, "CALL
// subqueries"); ArcadeDB accepts it too.
UNWIND $terms AS term
CALL (term) {
  CALL db.index.fulltext.queryNodes($fulltext_index, term) YIELD node
  WITH node
  WHERE node.namespace = $namespace AND node.status IN $statuses
  WITH node LIMIT $cap
  RETURN count(node) AS df
}
RETURN term, df
