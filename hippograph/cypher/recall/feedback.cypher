// Pseudo-relevance feedback, in one row: the embeddings of the $depth memories of $pool most
// relevant to the query, and for every hit of $pool [id, cosine to the query, the sum of its
// cosines to those embeddings] (the caller derives its cosine to the moved query from these).
// $pool is [{id, eid, ft}] (eid its elementId, a direct lookup; the id checks it), ft the
// memory's full-text score over the best one's (0 for a vector-only hit); relevance as
// retrieval._relevance has it, $alpha * cosine + (1 - $alpha) * ft, ties to the smaller id.
UNWIND $pool AS hit
MATCH (m)
WHERE elementId(m) = hit.eid AND m.id = hit.id AND m.namespace = $namespace
  AND m.embedding IS NOT NULL
WITH m, hit.ft AS ft,
     $cosine_scale * vector.similarity.cosine(m.embedding, $embedding) + $cosine_shift AS cosine
WITH m, cosine, $alpha * cosine + (1 - $alpha) * ft AS relevance
ORDER BY relevance DESC, m.id
WITH collect({m: m, cosine: cosine}) AS ranked
WITH ranked, [x IN ranked[0..$depth] | x.m.embedding] AS top
RETURN top AS embeddings,
       [x IN ranked | [x.m.id, x.cosine,
         reduce(s = 0.0, e IN top |
           s + $cosine_scale * vector.similarity.cosine(x.m.embedding, e) + $cosine_shift)]] AS hits
