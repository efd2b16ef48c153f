UNWIND $sessions AS session
MATCH (m:Memory {source_session: session})
WHERE m.namespace = $namespace AND m.status <> 'archived'
RETURN session, m.id AS id, m.source_messages AS messages, m.created_at AS created_at
