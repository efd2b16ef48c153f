// The profile without the entries and skills made from erased memories.
MATCH (p:Profile {namespace: $namespace})
SET p.entries = $entries, p.skills = $skills, p.updated_at = $now
RETURN p.version AS version
