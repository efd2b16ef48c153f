CREATE INDEX memory_namespace_type IF NOT EXISTS FOR (m:Memory) ON (m.namespace, m.memory_type)
