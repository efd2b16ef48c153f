// Weak: faded below $max_confidence, never restated, and weak at its base (the confidence it was
// stored with, as feedback adjusted it) - a stated or extracted fact that merely went unused
// fades in ranking but is not archived. The grace period (unused since learned or last used)
// is checked by the caller from the stamps returned here.
MATCH (m:Memory)
WHERE ($namespace IS NULL OR m.namespace = $namespace) AND m.status = 'active'
  AND m.confidence < $max_confidence AND coalesce(m.strength, 1) <= $max_strength
  AND coalesce(m.initial_confidence, m.confidence) <= $max_base
RETURN m.id AS id, m.namespace AS namespace, m.content AS content, m.updated_at AS updated_at,
       coalesce(m.recorded_at, m.created_at) AS learned_at, m.last_accessed AS last_accessed,
       m.last_reinforced_at AS last_reinforced_at, m.confirmed_at AS confirmed_at
ORDER BY m.id
