// ArcadeDB: a procedure CALL after UNWIND yields the rows of the last input row only; inside a
// subquery it runs once per row, as on Neo4j. Each term is counted up to $cap (the dialect's
// posting budget + 1: its index reads every posting it is asked for, about 1 us each).
UNWIND $terms AS term
CALL {
  WITH term
  CALL db.index.fulltext.queryNodes($fulltext_index, term) YIELD node
  WITH node
  WHERE node.namespace = $namespace AND node.status IN $statuses
  WITH node LIMIT $cap
  RETURN count(node) AS df
}
RETURN term, df
