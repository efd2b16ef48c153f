-- ArcadeDB indexes only declared properties, and its Cypher CREATE INDEX/CONSTRAINT
-- does not declare them: the type, its properties, then the index, in SQL.
CREATE VERTEX TYPE Word IF NOT EXISTS;
CREATE PROPERTY Word.uid IF NOT EXISTS STRING;
CREATE INDEX IF NOT EXISTS ON Word (uid) UNIQUE NULL_STRATEGY SKIP
