-- ArcadeDB indexes only declared properties, and its Cypher CREATE INDEX/CONSTRAINT
-- does not declare them: the type, its properties, then the index, in SQL.
CREATE VERTEX TYPE Memory IF NOT EXISTS;
CREATE PROPERTY Memory.id IF NOT EXISTS STRING;
CREATE INDEX IF NOT EXISTS ON Memory (id) UNIQUE NULL_STRATEGY SKIP
