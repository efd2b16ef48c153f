CREATE CONSTRAINT profile_namespace_unique IF NOT EXISTS
FOR (p:Profile) REQUIRE p.namespace IS UNIQUE
