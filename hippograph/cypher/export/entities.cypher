MATCH (e:Entity)
WHERE $namespace IS NULL OR e.namespace = $namespace
RETURN properties(e) AS props
ORDER BY e.uid
