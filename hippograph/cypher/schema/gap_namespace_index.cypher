CREATE INDEX gap_namespace IF NOT EXISTS FOR (g:Gap) ON (g.namespace)
