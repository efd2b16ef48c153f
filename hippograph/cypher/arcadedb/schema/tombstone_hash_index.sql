-- ArcadeDB indexes only declared properties, and its Cypher CREATE INDEX/CONSTRAINT
-- does not declare them: the type, its properties, then the index, in SQL.
CREATE VERTEX TYPE Tombstone IF NOT EXISTS;
CREATE PROPERTY Tombstone.content_hash IF NOT EXISTS STRING;
CREATE INDEX IF NOT EXISTS ON Tombstone (content_hash) NOTUNIQUE NULL_STRATEGY SKIP
