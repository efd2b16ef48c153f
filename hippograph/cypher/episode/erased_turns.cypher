// Which of the messages $hashes were erased (a turn's tombstone keeps only its hash): a
// transcript sent again does not bring an erased message back.
MATCH (t:Tombstone)
WHERE t.namespace = $namespace AND t.kind = 'turn' AND t.turn_hash IN $hashes
RETURN DISTINCT t.turn_hash AS hash
