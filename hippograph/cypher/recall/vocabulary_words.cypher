// The words of $namespace's vocabulary nearest the query (graph/recall/vocabulary.py): the index
// is shared by every namespace and filtered after it, so it is asked for $candidates.
CALL db.index.vector.queryNodes($word_index, $candidates, $embedding) YIELD node AS w, score
WITH w, score
WHERE w.namespace = $namespace
RETURN w.text AS word, 2 * score - 1 AS cosine
ORDER BY cosine DESC
LIMIT $k
