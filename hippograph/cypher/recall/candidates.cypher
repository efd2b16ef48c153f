// The chosen memories in full (no embedding), their tags and cosine to the query.
UNWIND $ids AS wanted
MATCH (m:Memory {id: wanted})
WHERE m.namespace = $namespace
OPTIONAL MATCH (m)-[:HAS_TAG]->(t:Tag)
WITH m, collect(t.name) AS tags
RETURN m {.*, embedding: null} AS memory, tags,
       $cosine_scale * vector.similarity.cosine(m.embedding, $embedding) + $cosine_shift AS cosine
