UNWIND $ids AS wanted
MATCH (m:Memory {id: wanted})
WHERE m.namespace = $namespace
OPTIONAL MATCH (m)-[:HAS_TAG]->(t:Tag)
WITH m, collect(t.name) AS tags
RETURN m {.*, embedding: null, ft_terms: null} AS memory, tags
