// The SET comes first so the row returned reflects this use even under concurrent recalls.
// $uses: [{id, times}], times the recalls (coalesced) that used the memory.
UNWIND $uses AS use
MATCH (m:Memory {id: use.id})
WITH m, use.times AS times
WHERE m.namespace = $namespace AND m.status = 'active'
SET m.access_count = coalesce(m.access_count, 0) + times, m.last_accessed = $now
RETURN m.id AS id, coalesce(m.initial_confidence, m.confidence) AS initial,
       m.memory_type AS memory_type, m.provenance AS provenance,
       m.access_count AS access_count, coalesce(m.trust_score, 1.0) AS trust,
       coalesce(m.recorded_at, m.created_at) AS learned_at, m.last_accessed AS last_accessed,
       m.last_reinforced_at AS last_reinforced_at
