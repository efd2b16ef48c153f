UNWIND $hashes AS h
MATCH (t:Tombstone {content_hash: h})
WHERE t.namespace = $namespace
RETURN h AS hash, max(t.at) AS at
