// The agent runs to erase: of the session $session_id, those the memories $memory_ids were
// distilled from, and those whose task, outcome, a step or a tool call (its tool, arguments,
// result or error) contains $text (lower-case); any given criterion selects.
MATCH (r:Run)
WHERE r.namespace = $namespace
  AND (r.session = $session_id
       OR EXISTS { MATCH (m:Memory)-[:DERIVED_FROM]->(r) WHERE m.id IN $memory_ids }
       OR ($text IS NOT NULL
           AND (toLower(coalesce(r.task, '')) CONTAINS $text
                OR toLower(coalesce(r.outcome, '')) CONTAINS $text
                OR EXISTS { MATCH (r)-[:HAS_STEP]->(s:Step)
                            WHERE toLower(coalesce(s.thought, '') + ' ' + coalesce(s.action, '')
                                          + ' ' + coalesce(s.observation, '')) CONTAINS $text }
                OR EXISTS { MATCH (r)-[:HAS_STEP]->(:Step)-[:HAS_TOOL_CALL]->(c:ToolCall)
                            WHERE toLower(coalesce(c.tool, '') + ' ' + coalesce(c.arguments, '')
                                          + ' ' + coalesce(c.result, '') + ' '
                                          + coalesce(c.error, '')) CONTAINS $text })))
RETURN r.id AS id, r.task AS task
