// A namespace holding an active memory, for the start-up warm-up's one recall on real rows
// (graph/recall/warmup.py); any will do, so the first found.
MATCH (m:Memory)
WHERE m.status = 'active'
RETURN m.namespace AS namespace
LIMIT 1
