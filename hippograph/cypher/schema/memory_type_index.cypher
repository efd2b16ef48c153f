CREATE INDEX memory_type IF NOT EXISTS FOR (m:Memory) ON (m.memory_type)
