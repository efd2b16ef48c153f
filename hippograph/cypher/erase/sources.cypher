// Turns (by uid) with their text and tool parts: the sources of memories being erased.
UNWIND $uids AS wanted
MATCH (e:Episode {uid: wanted})
WITH e
WHERE e.namespace = $namespace
RETURN e.id AS id, e.uid AS uid, e.session_id AS session_id, e.turn_index AS turn_index,
       e.text AS text, e.tool_calls AS tool_calls, e.tool_results AS tool_results
