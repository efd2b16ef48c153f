// An agent's run of one task. `steps` and `calls` count what was recorded, and number them.
CREATE (r:Run {id: $id, namespace: $namespace, session: $session, agent: $agent, task: $task,
               task_embedding: $embedding, started: $now, touched: $now, status: 'running',
               steps: 0, calls: 0})
RETURN r {.*, task_embedding: null} AS run
