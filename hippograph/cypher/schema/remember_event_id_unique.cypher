CREATE CONSTRAINT remember_event_id_unique IF NOT EXISTS FOR (r:RememberEvent) REQUIRE r.id IS UNIQUE
