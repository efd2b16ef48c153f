// The turns to erase: by id ($ids), a whole session ($session_id) or those whose text, tool
// parts or metadata contain $text (lower-case); any given criterion selects.
MATCH (e:Episode)
WHERE e.namespace = $namespace
  AND (e.id IN $ids OR e.session_id = $session_id
       OR ($text IS NOT NULL AND (toLower(e.text) CONTAINS $text
           OR toLower(coalesce(e.tool_calls, '')) CONTAINS $text
           OR toLower(coalesce(e.tool_results, '')) CONTAINS $text
           OR toLower(coalesce(e.metadata, '')) CONTAINS $text)))
RETURN e.id AS id, e.uid AS uid, e.session_id AS session_id, e.turn_index AS turn_index,
       e.text AS text, e.tool_calls AS tool_calls, e.tool_results AS tool_results
