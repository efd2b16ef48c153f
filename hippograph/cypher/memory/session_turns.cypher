// The turn references of one source session's stored memories: for a turn that arrives after
// later turns of its session were written, which stored turn it was said after
// (write/context.py). WITH before the namespace check: the session index finds them.
MATCH (m:Memory {source_session: $session})
WITH m
WHERE m.namespace = $namespace AND m.status <> 'archived' AND m.source_messages IS NOT NULL
RETURN m.id AS id, m.source_messages AS messages
