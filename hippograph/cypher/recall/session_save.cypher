MERGE (s:RecallSession {uid: $uid})
ON CREATE SET s.namespace = $namespace, s.session_id = $session_id, s.created_at = $now
SET s.context_embedding = $context_embedding, s.surfaced = $surfaced, s.updated_at = $now
RETURN s.uid AS uid
