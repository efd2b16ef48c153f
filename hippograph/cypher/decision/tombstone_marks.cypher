// What the namespace's tombstones block: the forgotten content's hashes (whole and without a
// "Speaker: " prefix) and its embedding. Tombstones are few (one per forget), so all are read.
MATCH (t:Tombstone)
WHERE t.namespace = $namespace
RETURN t.content_hash AS content_hash, t.body_hash AS body_hash, t.embedding AS embedding,
       t.neutral_embedding AS neutral_embedding, t.number_keys AS number_keys,
       t.relation_keys AS relation_keys, t.at AS at
