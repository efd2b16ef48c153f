CREATE INDEX memory_standing IF NOT EXISTS FOR (m:Memory) ON (m.standing_in)
