-- ArcadeDB indexes only declared properties, and its Cypher CREATE INDEX/CONSTRAINT
-- does not declare them: the type, its properties, then the index, in SQL. Only standing
-- instructions carry the flag (write/standing.py): the others are left out of the index.
CREATE VERTEX TYPE Memory IF NOT EXISTS;
CREATE PROPERTY Memory.namespace IF NOT EXISTS STRING;
CREATE PROPERTY Memory.standing IF NOT EXISTS BOOLEAN;
CREATE INDEX IF NOT EXISTS ON Memory (namespace, standing) NOTUNIQUE NULL_STRATEGY SKIP
