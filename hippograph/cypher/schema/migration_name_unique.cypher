CREATE CONSTRAINT migration_name_unique IF NOT EXISTS FOR (g:Migration) REQUIRE g.name IS UNIQUE
