// Written in the wipe's transaction: while it is there the namespace is being replayed, and
// a run that died midway is finished by the next (rebuild.resume).
MERGE (r:RebuildState {namespace: $namespace})
SET r.holder = $holder, r.started = $now
RETURN r.namespace AS namespace
