-- ArcadeDB indexes only declared properties, and its Cypher CREATE INDEX/CONSTRAINT
-- does not declare them: the type, its properties, then the index, in SQL.
CREATE VERTEX TYPE Memory IF NOT EXISTS;
CREATE PROPERTY Memory.content_hash IF NOT EXISTS STRING;
CREATE INDEX IF NOT EXISTS ON Memory (content_hash) NOTUNIQUE NULL_STRATEGY SKIP
