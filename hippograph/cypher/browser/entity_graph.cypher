// A namespace's people, places and things as a graph (for the graph view): entities and the
// relationships between them, the ones that no longer hold too (r.until set); the type of each
// is its `type` property (set the caption of RELATED to it).
MATCH (a:Entity)-[r:RELATED|SAME_AS]->(b:Entity)
WHERE a.namespace = $namespace
RETURN a, r, b
LIMIT $limit
