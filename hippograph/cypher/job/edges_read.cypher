// Adjacency (consecutive turns of a session) is structure, not an association learned from use:
// it does not fade (jobs/edges.py).
MATCH (a:Memory)-[r:RELATES_TO]->(b:Memory)
WHERE ($namespace IS NULL OR a.namespace = $namespace)
  AND coalesce(r.kind, '') <> 'adjacent'
  AND coalesce(r.last_reinforced_at, r.created_at) <= $cutoff
RETURN a.id AS source, b.id AS target, coalesce(r.confidence, 1.0) AS confidence,
       coalesce(r.last_reinforced_at, r.created_at) AS anchor,
       r.decay_anchor AS decay_anchor, coalesce(r.decay_windows, 0) AS decay_windows
