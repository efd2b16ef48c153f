// Pseudo-relevance feedback: the embeddings of the $depth memories of $pool most relevant to
// the query, in one row. $pool is [{id, ft}], ft the memory's full-text score over the best
// one's (0 for a vector-only hit); relevance as retrieval._relevance has it,
// $alpha * cosine + (1 - $alpha) * ft, ties to the smaller id.
UNWIND $pool AS hit
MATCH (m:Memory {id: hit.id})
WITH m, hit
WHERE m.namespace = $namespace AND m.embedding IS NOT NULL
WITH m, $alpha * ($cosine_scale * vector.similarity.cosine(m.embedding, $embedding) + $cosine_shift)
        + (1 - $alpha) * hit.ft AS relevance
ORDER BY relevance DESC, m.id
LIMIT $depth
RETURN collect(m.embedding) AS embeddings
