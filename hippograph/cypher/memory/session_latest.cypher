// The memories each session was last written (its latest batch), with their turn reference,
// content and scope key: what a turn arriving after them was said after (write/context.py).
// The namespace is checked after a WITH, so the session index, not the namespace's, finds them.
UNWIND $sessions AS session
MATCH (m:Memory {source_session: session})
WITH session, m
WHERE m.namespace = $namespace AND m.status <> 'archived'
WITH session, max(m.recorded_at) AS at
MATCH (m:Memory {source_session: session})
WITH session, at, m
WHERE m.namespace = $namespace AND m.status <> 'archived' AND m.recorded_at = at
RETURN session, m.source_messages AS messages, m.content AS content, m.scope_key AS scope_key
