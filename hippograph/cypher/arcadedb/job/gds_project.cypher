// ArcadeDB has no Graph Data Science: jobs/pagerank.py computes PageRank in-process there and
// never runs this statement (Dialect.may_have_gds is False). It exists only as the twin the
// query contract requires of every Neo4j-only statement, and returns no rows.
UNWIND [] AS id
RETURN id, 0.0 AS score
