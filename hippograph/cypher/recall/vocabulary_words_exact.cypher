// The words of $namespace's vocabulary nearest the query by an exact scan, for when the shared
// index leaves too few of them.
MATCH (w:Word)
WHERE w.namespace = $namespace AND w.embedding IS NOT NULL
WITH w, $cosine_scale * vector.similarity.cosine(w.embedding, $embedding) + $cosine_shift AS cosine
ORDER BY cosine DESC
LIMIT $k
RETURN w.text AS word, cosine
