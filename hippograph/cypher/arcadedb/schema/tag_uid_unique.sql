-- ArcadeDB indexes only declared properties, and its Cypher CREATE INDEX/CONSTRAINT
-- does not declare them: the type, its properties, then the index, in SQL.
CREATE VERTEX TYPE Tag IF NOT EXISTS;
CREATE PROPERTY Tag.uid IF NOT EXISTS STRING;
CREATE INDEX IF NOT EXISTS ON Tag (uid) UNIQUE NULL_STRATEGY SKIP
