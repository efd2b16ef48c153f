CREATE INDEX memory_source_session IF NOT EXISTS FOR (m:Memory) ON (m.source_session)
