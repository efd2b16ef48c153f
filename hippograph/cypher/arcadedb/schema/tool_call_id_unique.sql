-- ArcadeDB indexes only declared properties, and its Cypher CREATE INDEX/CONSTRAINT
-- does not declare them: the type, its properties, then the index, in SQL.
CREATE VERTEX TYPE ToolCall IF NOT EXISTS;
CREATE PROPERTY ToolCall.id IF NOT EXISTS STRING;
CREATE INDEX IF NOT EXISTS ON ToolCall (id) UNIQUE NULL_STRATEGY SKIP
