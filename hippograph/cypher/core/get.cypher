// A namespace's core block (no row before the first computation).
MATCH (b:CoreBlock {namespace: $namespace})
RETURN b.memory_ids AS memory_ids, b.version AS version, b.updated_at AS updated_at,
       b.decider AS decider
