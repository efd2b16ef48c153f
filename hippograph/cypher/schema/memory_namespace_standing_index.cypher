CREATE INDEX memory_namespace_standing IF NOT EXISTS FOR (m:Memory) ON (m.namespace, m.standing)
