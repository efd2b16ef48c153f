-- ArcadeDB indexes only declared properties, and its Cypher CREATE INDEX/CONSTRAINT
-- does not declare them: the type, its properties, then the index, in SQL.
-- standing_in: the namespace of a standing instruction (text/standing.py), absent on every
-- other memory, so the index holds the instructions only. Its own single-property index, not a
-- composite one after namespace: ArcadeDB's planner then took a (namespace, standing) index
-- for the (namespace, memory_type) lookup of the negative rules and read the whole namespace
-- (100,000 memories: ~250 ms a recall instead of ~1 ms).
CREATE VERTEX TYPE Memory IF NOT EXISTS;
CREATE PROPERTY Memory.standing_in IF NOT EXISTS STRING;
CREATE INDEX IF NOT EXISTS ON Memory (standing_in) NOTUNIQUE NULL_STRATEGY SKIP
