// The index's best $candidates hits for $query, words keyed by the namespace (write/fulltext.py):
// the index hands over this namespace's postings only, the namespace is still checked exactly.
// One row: how many hits the index gave (the caller asks again for more only when the index
// had more to give) and the kept ones with their text, which the caller scores by BM25 over
// the namespace's own statistics (its indexed words tell its context's words from its own).
CALL db.index.fulltext.queryNodes($fulltext_index, $query, {limit: $candidates}) YIELD node
WITH collect(node) AS hits
WITH size(hits) AS fetched,
     [m IN hits WHERE m.namespace = $namespace AND m.status IN $statuses
        AND (m.scope = 'global' OR (m.scope = 'project' AND m.project = $project)
             OR (m.scope = 'session' AND m.session_id = $session_id))] AS kept
RETURN fetched,
       [m IN kept | {id: m.id, eid: elementId(m), content: m.content, terms: m.ft_terms,
                     status: m.status}] AS hits
