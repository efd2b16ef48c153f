// A random sample of $namespace's active memories (each taken with probability $share, at most
// $limit): the words each is indexed by, from which `termstats` estimates how many memories
// hold a word it has not counted yet. Run off the query's path: it reads every active memory
// of the namespace once, like recall/corpus_stats.
MATCH (m:Memory)
WHERE m.namespace = $namespace AND m.status = 'active' AND rand() < $share
WITH m LIMIT $limit
RETURN m.ft_terms AS terms
