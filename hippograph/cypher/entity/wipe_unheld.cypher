// Rebuild, after the memories were wiped: entities nothing but memories held are deleted (the
// replay finds them again, under the same uids); those a caller related or merged stay, their
// mention counts at zero until the replay mentions them.
MATCH (e:Entity)
WHERE e.namespace = $namespace
WITH e, EXISTS { MATCH (e)-[r:RELATED]-(:Entity) WHERE r.source = 'caller' }
        OR EXISTS { MATCH (e)-[:SAME_AS]-(:Entity) } AS held
FOREACH (x IN CASE WHEN held THEN [e] ELSE [] END | SET x.mentions = 0)
WITH e, held
WHERE NOT held
DETACH DELETE e
RETURN count(*) AS deleted
