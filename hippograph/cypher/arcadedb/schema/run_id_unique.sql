-- ArcadeDB indexes only declared properties, and its Cypher CREATE INDEX/CONSTRAINT
-- does not declare them: the type, its properties, then the index, in SQL.
CREATE VERTEX TYPE Run IF NOT EXISTS;
CREATE PROPERTY Run.id IF NOT EXISTS STRING;
CREATE INDEX IF NOT EXISTS ON Run (id) UNIQUE NULL_STRATEGY SKIP
