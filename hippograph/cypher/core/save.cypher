// Replace a namespace's core block and keep the change (what came in, what left, who chose).
MERGE (b:CoreBlock {namespace: $namespace})
SET b.memory_ids = $memory_ids, b.version = $version, b.updated_at = $now,
    b.decider = $decider
CREATE (c:CoreChange {namespace: $namespace, version: $version, at: $now, decider: $decider,
                      added: $added, removed: $removed, reason: $reason})
RETURN b.version AS version
