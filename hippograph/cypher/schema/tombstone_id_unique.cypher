CREATE CONSTRAINT tombstone_id_unique IF NOT EXISTS FOR (t:Tombstone) REQUIRE t.id IS UNIQUE
