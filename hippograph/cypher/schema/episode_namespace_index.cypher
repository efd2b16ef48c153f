CREATE INDEX episode_namespace IF NOT EXISTS FOR (e:Episode) ON (e.namespace)
