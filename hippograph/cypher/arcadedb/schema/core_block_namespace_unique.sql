-- ArcadeDB indexes only declared properties, and its Cypher CREATE INDEX/CONSTRAINT
-- does not declare them: the type, its properties, then the index, in SQL.
CREATE VERTEX TYPE CoreBlock IF NOT EXISTS;
CREATE PROPERTY CoreBlock.namespace IF NOT EXISTS STRING;
CREATE INDEX IF NOT EXISTS ON CoreBlock (namespace) UNIQUE NULL_STRATEGY SKIP
