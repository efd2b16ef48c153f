// The changes of a namespace's core block, newest first.
MATCH (c:CoreChange {namespace: $namespace})
RETURN c.version AS version, c.at AS at, c.decider AS decider, c.added AS added,
       c.removed AS removed, c.reason AS reason
ORDER BY c.version DESC
LIMIT $limit
