// Messages already in the log under a client message id ($keys: namespace|session|message id).
UNWIND $keys AS key
MATCH (e:Episode {message_key: key})
RETURN key, e.id AS id, e.session_id AS session_id, e.turn_index AS turn_index, e.text AS text,
       e.tool_calls AS tool_calls, e.tool_results AS tool_results
