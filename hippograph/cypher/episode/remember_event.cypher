CREATE (r:RememberEvent)
SET r = $event
RETURN r.id AS id
