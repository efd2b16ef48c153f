// New words of $namespace's vocabulary with their embeddings; a word added meanwhile by another
// update is left as it is.
UNWIND $words AS row
MERGE (w:Word {uid: row.uid})
ON CREATE SET w.namespace = $namespace, w.text = row.text, w.embedding = row.embedding,
              w.created_at = $now
RETURN count(w) AS words
