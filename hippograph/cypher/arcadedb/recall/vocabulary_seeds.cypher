// ArcadeDB: a procedure CALL after UNWIND yields the rows of the last input row only; inside a
// subquery it runs once per row, as on Neo4j (see the common statement for the rest).
// $scopes: the scope keys the recall sees (graph.model.scopes; why a stored key: recall/expand).
UNWIND $words AS row
CALL (row) {
  CALL db.index.fulltext.queryNodes($fulltext_index, row.term, {limit: $per_word}) YIELD node
  RETURN node AS m
}
WITH row, m
WHERE m.namespace = $namespace AND m.status IN $statuses AND NOT m.id IN $exclude
  AND m.scope_key IN $scopes
  AND ($as_of IS NULL OR (coalesce(m.recorded_at, m.created_at) <= $as_of
       AND (m.status = 'active'
            OR coalesce(m.superseded_at, m.archived_at, m.updated_at) > $as_of)))
WITH m, max(row.weight) AS weight, collect(row.word) AS words
ORDER BY weight DESC, m.id
LIMIT $limit
RETURN m.id AS id, elementId(m) AS eid, m.status AS status, m.content AS content,
       words
