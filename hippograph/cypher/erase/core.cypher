// The core block without erased memories (its changes keep ids only).
MATCH (b:CoreBlock {namespace: $namespace})
SET b.memory_ids = [i IN coalesce(b.memory_ids, []) WHERE NOT i IN $ids]
RETURN b.version AS version
