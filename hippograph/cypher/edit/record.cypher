// An edit made after the fact (supersede, link, tag, untag, feedback), appended for rebuild.
CREATE (e:EditEvent)
SET e = $event
RETURN e.id AS id
