// A page of $namespace's vocabulary for recall's copy in memory (graph/recall/vocabulary.py):
// the $limit words after the uid $after, in uid order, collected into one row (the embedded
// engine's cost per returned row is most of a small read); `last` is where the next page starts.
MATCH (w:Word)
WHERE w.namespace = $namespace AND w.uid > $after AND w.embedding IS NOT NULL
WITH w ORDER BY w.uid LIMIT $limit
RETURN collect(w.text) AS words, collect(w.embedding) AS embeddings, max(w.uid) AS last
