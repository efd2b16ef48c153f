// A namespace's materialized profile (no row before the profile job first ran).
MATCH (p:Profile {namespace: $namespace})
RETURN p.entries AS entries, p.skills AS skills, p.version AS version,
       p.updated_at AS updated_at
