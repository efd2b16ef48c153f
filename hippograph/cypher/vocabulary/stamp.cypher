// The memories whose words are now in the vocabulary, each only if its content is still the
// one read (an edit meanwhile leaves it pending, for the next update).
UNWIND $memories AS row
MATCH (m:Memory {id: row.id})
WITH m, row
WHERE m.namespace = $namespace AND coalesce(m.content_hash, '') = coalesce(row.hash, '')
SET m.vocabulary = $version
RETURN count(m) AS stamped
