CREATE INDEX tombstone_hash IF NOT EXISTS FOR (t:Tombstone) ON (t.content_hash)
