// The chosen memories in full (the embedding apart), their tags and cosine to the query.
// $ids are [elementId, id] pairs: looked up by element id (direct), checked by id.
UNWIND $ids AS wanted
MATCH (m)
WHERE elementId(m) = wanted[0] AND m.id = wanted[1] AND m.namespace = $namespace
OPTIONAL MATCH (m)-[:HAS_TAG]->(t:Tag)
WITH m, collect(t.name) AS tags
RETURN m {.*, embedding: null, ft_terms: null} AS memory, tags, m.embedding AS embedding,
       $cosine_scale * vector.similarity.cosine(m.embedding, $embedding) + $cosine_shift AS cosine
