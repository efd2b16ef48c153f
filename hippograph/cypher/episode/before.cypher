// Turns said before a chunk of a session, by their uids (write/episodes.py: uid): what
// extraction reads to know the conversation so far (the user's name, the statement a
// correction refers to). Looked up by the unique uid index, a handful per chunk.
UNWIND $uids AS wanted
MATCH (e:Episode {uid: wanted})
WHERE e.namespace = $namespace
RETURN e {.*} AS episode
ORDER BY e.turn_index
