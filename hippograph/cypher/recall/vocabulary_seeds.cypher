// The memories of $namespace holding the words $words (graph/recall/vocabulary.py: words of its
// vocabulary near the question, each keyed by the namespace as `term`, with its `weight`), at
// most $per_word a word, the $limit holding the weightiest word first, with their text (the
// caller tells a word of the content from one the memory is indexed by only as its context).
// $exclude: what the full-text seeds found already. Scope and $as_of as recall/fulltext_seeds.
// $scopes: the scope keys the recall sees (graph.model.scopes; why a stored key: recall/expand).
UNWIND $words AS row
CALL db.index.fulltext.queryNodes($fulltext_index, row.term, {limit: $per_word}) YIELD node AS m
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
