-- ArcadeDB indexes only declared properties, and its Cypher CREATE INDEX/CONSTRAINT
-- does not declare them: the type, its properties, then the index, in SQL.
CREATE VERTEX TYPE Entity IF NOT EXISTS;
CREATE PROPERTY Entity.uid IF NOT EXISTS STRING;
CREATE INDEX IF NOT EXISTS ON Entity (uid) UNIQUE NULL_STRATEGY SKIP
