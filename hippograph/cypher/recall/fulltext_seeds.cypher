// The index's best $candidates hits (every namespace shares it), then the caller's filters.
// One row: how many hits the index gave (the caller asks again for more only when the index
// had more to give) and the kept ones, with their scores.
CALL db.index.fulltext.queryNodes($fulltext_index, $query, {limit: $candidates}) YIELD node, score
WITH collect({m: node, score: score}) AS hits
WITH size(hits) AS fetched,
     [h IN hits WHERE h.m.namespace = $namespace AND h.m.status IN $statuses
        AND (h.m.scope = 'global' OR (h.m.scope = 'project' AND h.m.project = $project)
             OR (h.m.scope = 'session' AND h.m.session_id = $session_id))] AS kept
RETURN fetched,
       [h IN kept | {id: h.m.id, eid: elementId(h.m), score: h.score, status: h.m.status}] AS hits
