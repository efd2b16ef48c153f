// The memories of one source session with their text: after a hard forget, their indexed words
// are made again from their own content, so no memory stays findable by the words of a forgotten
// one it was said after (write/context.py). WITH before the namespace check: the session index.
MATCH (m:Memory {source_session: $session})
WITH m
WHERE m.namespace = $namespace
RETURN m.id AS id, m.content AS content
