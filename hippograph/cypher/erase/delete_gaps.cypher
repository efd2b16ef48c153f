MATCH (g:Gap)
WHERE g.namespace = $namespace AND g.id IN $ids
DELETE g
RETURN count(*) AS deleted
