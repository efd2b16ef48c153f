// An erased turn leaves only its hash (graph/write/append.py: fingerprint), so that a
// transcript sent again does not bring it back.
UNWIND $rows AS row
CREATE (t:Tombstone {id: row.id, namespace: $namespace, kind: 'turn', turn_hash: row.hash,
                     at: $now, reason: 'erased'})
RETURN count(t) AS tombstones
