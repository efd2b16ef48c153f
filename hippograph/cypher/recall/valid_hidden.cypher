// A recall or search validAt $valid_at (event time): the namespace's memories that did not
// hold then - their fact began later, or it had ended (valid_until, the event time their
// successor began) - and what was archived or forgotten. Superseded memories that held then
// stay: they answer for that time.
MATCH (m:Memory)
WHERE m.namespace = $namespace
  AND (m.created_at > $valid_at
       OR (m.valid_until IS NOT NULL AND m.valid_until <= $valid_at)
       OR NOT m.status IN ['active', 'superseded'])
RETURN m.id AS id
