// A first look at a namespace as a graph (for the graph view): memories and what they touch.
MATCH (m:Memory)-[r]-(n)
WHERE m.namespace = $namespace
RETURN m, r, n
LIMIT $limit
