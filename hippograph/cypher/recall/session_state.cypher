MATCH (s:RecallSession {uid: $uid})
RETURN s.context_embedding AS context_embedding, s.surfaced AS surfaced
