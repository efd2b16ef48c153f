// Each speaker's mean memory length in characters (from the speaker:<name> tags the tagger
// writes): a speaker whose memories run much longer than another's (an assistant's answers
// beside a person's messages) restates (graph/recall/rank.py). Read in the background and cached.
MATCH (t:Tag)<-[:HAS_TAG]-(m)
WHERE t.namespace = $namespace AND t.name STARTS WITH 'speaker:' AND t.count > 0
  AND m.status = 'active'
RETURN substring(t.name, 8) AS name, avg(size(m.content)) AS length
