// Claims the turns: only those no other extraction marked first (a concurrent ingest); the
// caller rolls back when fewer than all were claimed, so no turn is extracted twice.
UNWIND $uids AS wanted
MATCH (e:Episode {uid: wanted})
WHERE e.namespace = $namespace AND e.extracted_at IS NULL
SET e.extracted_at = $now, e.extractor = $extractor
RETURN count(e) AS marked
