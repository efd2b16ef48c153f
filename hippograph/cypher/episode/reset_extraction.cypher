MATCH (e:Episode)
WHERE e.namespace = $namespace
SET e.extracted_at = null, e.extractor = null
RETURN count(e) AS reset
