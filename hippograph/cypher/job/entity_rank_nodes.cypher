// The namespace's entities ($namespace null: every namespace), each with the entity it was
// merged into (SAME_AS), if any: a merged one is scored as the one it joined.
MATCH (e:Entity)
WHERE ($namespace IS NULL OR e.namespace = $namespace)
OPTIONAL MATCH (e)-[:SAME_AS]->(k:Entity)
RETURN e.uid AS id, e.namespace AS namespace, k.uid AS kept, e.pagerank AS score,
       e.importance AS importance
