-- ArcadeDB indexes only declared properties, and its Cypher CREATE INDEX/CONSTRAINT
-- does not declare them: the type, its properties, then the index, in SQL.
CREATE VERTEX TYPE Episode IF NOT EXISTS;
CREATE PROPERTY Episode.message_key IF NOT EXISTS STRING;
CREATE INDEX IF NOT EXISTS ON Episode (message_key) NOTUNIQUE NULL_STRATEGY SKIP
