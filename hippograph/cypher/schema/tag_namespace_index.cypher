CREATE INDEX tag_namespace IF NOT EXISTS FOR (t:Tag) ON (t.namespace)
