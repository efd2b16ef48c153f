// The memories to erase by id ($ids) or whose content contains $text (lower-case), with the
// turns they were derived from (their words came from there).
MATCH (m:Memory)
WHERE m.namespace = $namespace
  AND (m.id IN $ids OR ($text IS NOT NULL AND toLower(m.content) CONTAINS $text))
OPTIONAL MATCH (m)-[:DERIVED_FROM]->(e:Episode)
RETURN m.id AS id, collect(e.uid) AS sources
