-- ArcadeDB indexes only declared properties, and its Cypher CREATE INDEX/CONSTRAINT
-- does not declare them: the type, its properties, then the index, in SQL.
CREATE VERTEX TYPE Profile IF NOT EXISTS;
CREATE PROPERTY Profile.namespace IF NOT EXISTS STRING;
CREATE INDEX IF NOT EXISTS ON Profile (namespace) UNIQUE NULL_STRATEGY SKIP
