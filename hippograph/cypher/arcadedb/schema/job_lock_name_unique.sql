-- ArcadeDB indexes only declared properties, and its Cypher CREATE INDEX/CONSTRAINT
-- does not declare them: the type, its properties, then the index, in SQL.
CREATE VERTEX TYPE JobLock IF NOT EXISTS;
CREATE PROPERTY JobLock.name IF NOT EXISTS STRING;
CREATE INDEX IF NOT EXISTS ON JobLock (name) UNIQUE NULL_STRATEGY SKIP
