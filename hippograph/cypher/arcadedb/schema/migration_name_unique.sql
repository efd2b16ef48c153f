-- ArcadeDB indexes only declared properties, and its Cypher CREATE INDEX/CONSTRAINT
-- does not declare them: the type, its properties, then the index, in SQL.
CREATE VERTEX TYPE Migration IF NOT EXISTS;
CREATE PROPERTY Migration.name IF NOT EXISTS STRING;
CREATE INDEX IF NOT EXISTS ON Migration (name) UNIQUE NULL_STRATEGY SKIP
