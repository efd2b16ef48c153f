CREATE INDEX run_namespace IF NOT EXISTS FOR (n:Run) ON (n.namespace)
