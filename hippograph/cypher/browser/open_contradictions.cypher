// Contradictions nobody has resolved yet, between memories that are both still active, newest
// first (consolidation resolves them; until then recall may return either side).
MATCH (a:Memory)-[r:CONTRADICTS]->(b:Memory)
WHERE a.namespace = $namespace AND coalesce(r.resolved, false) = false
  AND a.status = 'active' AND b.status = 'active'
RETURN r.at AS since, a.id AS id, a.content AS content, b.id AS contradicted_id,
       b.content AS contradicted_content, a, r, b
ORDER BY since DESC, id, contradicted_id
