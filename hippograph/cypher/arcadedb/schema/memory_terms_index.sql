-- The namespace-keyed words of a memory (text/fulltext.py), declared then indexed.
CREATE PROPERTY Memory.ft_terms IF NOT EXISTS STRING;
CREATE INDEX IF NOT EXISTS ON Memory (ft_terms) FULL_TEXT
