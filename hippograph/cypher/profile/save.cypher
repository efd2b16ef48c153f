// Replace a namespace's profile (entries and skills as JSON strings, one per item).
MERGE (p:Profile {namespace: $namespace})
SET p.entries = $entries, p.skills = $skills, p.version = coalesce(p.version, 0) + 1,
    p.updated_at = $now
RETURN p.version AS version
