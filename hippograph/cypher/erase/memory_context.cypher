// What the memories being erased leave behind elsewhere: their contents (for the vocabulary),
// source sessions (re-indexed), tags (dropped when left empty), clusters (labels cleared).
UNWIND $ids AS wanted
MATCH (m:Memory {id: wanted})
WITH m
WHERE m.namespace = $namespace
OPTIONAL MATCH (m)-[:HAS_TAG]->(t:Tag)
OPTIONAL MATCH (m)-[:IN_CLUSTER]->(c:Cluster)
RETURN m.id AS id, m.content AS content, m.source_session AS session,
       collect(DISTINCT t.uid) AS tags, collect(DISTINCT c.id) AS clusters
