// A turn already in the log is left as it was; its text and tool parts come back so that a
// different message sent under the same (session, turn index) is refused as a conflict.
UNWIND $rows AS row
MERGE (e:Episode {uid: row.uid})
ON CREATE SET e += row.props, e.batch = $batch
RETURN e.uid AS uid, e.id AS id, e.batch = $batch AS created, e.text AS text,
       e.tool_calls AS tool_calls, e.tool_results AS tool_results
