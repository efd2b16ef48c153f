MATCH (m:Memory)
WHERE m.status = 'active' AND ($namespace IS NULL OR m.namespace = $namespace)
RETURN m.id AS id, m.memory_type AS memory_type, m.provenance AS provenance,
       coalesce(m.initial_confidence, m.confidence) AS initial, m.confidence AS confidence,
       coalesce(m.trust_score, 1.0) AS trust, coalesce(m.access_count, 0) AS access_count,
       coalesce(m.recorded_at, m.created_at) AS learned_at, m.last_accessed AS last_accessed,
       m.last_reinforced_at AS last_reinforced_at, coalesce(m.strength, 1) AS strength,
       m.confirmed_at AS confirmed_at
