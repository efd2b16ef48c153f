UNWIND $uids AS wanted
MATCH (e:Episode {uid: wanted})
WHERE e.namespace = $namespace
SET e.extracted_at = $now, e.extractor = $extractor
RETURN count(e) AS marked
