// How many memories of $namespace with a status in $statuses hold each of $terms (words keyed by
// the namespace: the index hands over this namespace's postings only), one row per term that any
// holds (recall counts active memories; forgetting asks whether any memory still holds a word).
// $cap (a posting budget, beyond which only "too many" matters) is the ArcadeDB override's:
// Neo4j's dialect sets no budget, and its Lucene index counts every posting of a term cheaply.
UNWIND $terms AS term
CALL db.index.fulltext.queryNodes($fulltext_index, term) YIELD node
WITH term, node
WHERE node.namespace = $namespace AND node.status IN $statuses
RETURN term, count(node) AS df
