-- ArcadeDB indexes only declared properties, and its Cypher CREATE INDEX/CONSTRAINT
-- does not declare them: the type, its properties, then the index, in SQL.
CREATE VERTEX TYPE Decision IF NOT EXISTS;
CREATE PROPERTY Decision.target_id IF NOT EXISTS STRING;
CREATE INDEX IF NOT EXISTS ON Decision (target_id) NOTUNIQUE NULL_STRATEGY SKIP
