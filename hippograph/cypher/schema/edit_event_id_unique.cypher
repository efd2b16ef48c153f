CREATE CONSTRAINT edit_event_id_unique IF NOT EXISTS FOR (e:EditEvent) REQUIRE e.id IS UNIQUE
