// What each memory replaced, nearest first (the timeline behind a current fact).
UNWIND $ids AS current_id
MATCH (cur:Memory {id: current_id})
WHERE cur.namespace = $namespace
MATCH path = (cur)-[:SUPERSEDES*1..64]->(old:Memory)
WITH current_id, old, length(path) AS depth, last(relationships(path)) AS edge
RETURN current_id, old.id AS id, old.content AS content, old.created_at AS created_at,
       old.valid_until AS valid_until,
       edge.at AS superseded_at, edge.reason AS reason, depth
ORDER BY current_id, depth
