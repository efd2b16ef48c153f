-- ArcadeDB indexes only declared properties, and its Cypher CREATE INDEX/CONSTRAINT
-- does not declare them: the type, its properties, then the index, in SQL.
CREATE VERTEX TYPE ConsolidationState IF NOT EXISTS;
CREATE PROPERTY ConsolidationState.key IF NOT EXISTS STRING;
CREATE INDEX IF NOT EXISTS ON ConsolidationState (key) UNIQUE NULL_STRATEGY SKIP
