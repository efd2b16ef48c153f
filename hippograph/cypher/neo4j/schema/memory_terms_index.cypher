CREATE FULLTEXT INDEX memory_terms IF NOT EXISTS FOR (m:Memory) ON EACH [m.ft_terms]
