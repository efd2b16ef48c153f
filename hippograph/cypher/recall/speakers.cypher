// Names of the namespace's speakers (from the speaker:<name> tags the tagger writes).
MATCH (t:Tag)
WHERE t.namespace = $namespace AND t.name STARTS WITH 'speaker:' AND t.count > 0
RETURN substring(t.name, 8) AS name
