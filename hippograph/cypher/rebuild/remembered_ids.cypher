// The memories explicit remembers created, by the instant of their RememberEvent and content
// hash: a store written before ids were derived gives them back to the replay.
MATCH (d:Decision)
WHERE d.namespace = $namespace AND d.source = 'remember'
  AND d.action IN ['ADD', 'SUPERSEDE', 'CONTRADICT']
RETURN d.at AS at, d.content_hash AS content_hash, d.memory_id AS memory_id
