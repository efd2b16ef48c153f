// What each memory replaced, newest first (the timeline behind a current fact).
UNWIND $ids AS current_id
MATCH path = (cur:Memory {id: current_id})-[:SUPERSEDES*1..8]->(old:Memory)
WHERE cur.namespace = $namespace
WITH current_id, old, length(path) AS depth, last(relationships(path)) AS edge
RETURN current_id, old.id AS id, old.content AS content, old.created_at AS created_at,
       edge.at AS superseded_at, edge.reason AS reason, depth
ORDER BY current_id, depth
