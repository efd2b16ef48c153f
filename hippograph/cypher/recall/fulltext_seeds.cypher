// The index's best $candidates hits for $query, words keyed by the namespace (text/fulltext.py):
// the index hands over this namespace's postings only, the namespace is still checked exactly.
// One row: how many hits the index gave (the caller asks again for more only when the index
// had more to give) and the kept ones with their text, which the caller scores by BM25 over
// the namespace's own statistics (its indexed words tell its context's words from its own).
// $as_of (null: now): only memories the store held as current then (learned by then, not yet
// superseded or archived: graph.model.Memory.current_at), so that a recall as of a past time
// seeds from what was current, not from what came later and is dropped.
// $scopes: the scope keys the recall sees (graph.model.scopes; why a stored key: recall/expand).
CALL db.index.fulltext.queryNodes($fulltext_index, $query, {limit: $candidates}) YIELD node
WITH collect(node) AS hits
WITH size(hits) AS fetched,
     [m IN hits WHERE m.namespace = $namespace AND m.status IN $statuses
        AND m.scope_key IN $scopes
        AND ($as_of IS NULL OR (coalesce(m.recorded_at, m.created_at) <= $as_of
             AND (m.status = 'active'
                  OR coalesce(m.superseded_at, m.archived_at, m.updated_at) > $as_of)))] AS kept
RETURN fetched,
       [m IN kept | {id: m.id, eid: elementId(m), content: m.content, terms: m.ft_terms,
                     status: m.status}] AS hits
