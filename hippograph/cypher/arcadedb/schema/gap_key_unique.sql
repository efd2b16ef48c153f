-- ArcadeDB indexes only declared properties, and its Cypher CREATE INDEX/CONSTRAINT
-- does not declare them: the type, its properties, then the index, in SQL.
CREATE VERTEX TYPE Gap IF NOT EXISTS;
CREATE PROPERTY Gap.key IF NOT EXISTS STRING;
CREATE INDEX IF NOT EXISTS ON Gap (key) UNIQUE NULL_STRATEGY SKIP
