// ArcadeDB: a procedure CALL after UNWIND yields the rows of the last input row only; inside a
// subquery it runs once per row, as on Neo4j.
UNWIND $rows AS row
CALL (row) {
  CALL db.index.vector.queryNodes($vector_index, $candidates, row.embedding) YIELD node, score
  RETURN node AS m, score
}
WITH row, m, score
WHERE m.namespace = $namespace AND m.status = 'active' AND m.scope_key = row.scope_key
WITH row.i AS i, m, 2 * score - 1 AS cosine
ORDER BY i, cosine DESC
WITH i, collect({id: m.id, content: m.content, memory_type: m.memory_type,
                 created_at: m.created_at, updated_at: m.updated_at, cosine: cosine}) AS found
RETURN i, found[0..$k] AS found
