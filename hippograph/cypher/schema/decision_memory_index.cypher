CREATE INDEX decision_memory IF NOT EXISTS FOR (d:Decision) ON (d.memory_id)
