CREATE CONSTRAINT memory_dedup_unique IF NOT EXISTS FOR (m:Memory) REQUIRE m.dedup_key IS UNIQUE
