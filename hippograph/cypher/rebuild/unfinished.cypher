MATCH (r:RebuildState)
RETURN r.namespace AS namespace, r.holder AS holder, r.started AS started
ORDER BY r.started, r.namespace
