// The namespace's full-text statistics: its active memories and their average length in
// characters (BM25's N and avgdl).
MATCH (m:Memory)
WHERE m.namespace = $namespace AND m.status = 'active'
RETURN count(m) AS size, avg(size(m.content)) AS avg_length
