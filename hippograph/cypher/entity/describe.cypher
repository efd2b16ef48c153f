// What a caller says of an entity (defineEntity): its kind and description, each when given.
MATCH (e:Entity {uid: $uid})
WITH e
WHERE e.namespace = $namespace
SET e.kind = coalesce($kind, e.kind), e.description = coalesce($description, e.description)
RETURN e.uid AS uid
