// What clustering needs of a page of memories. Previous membership is read apart
// (job/cluster_previous): walking each memory's edges for it cost ~5x this read at 100k
// (ArcadeDB, 5,000 rows: 4.3 s against 0.5-0.8 s).
UNWIND $ids AS wanted
MATCH (m:Memory {id: wanted})
RETURN m.id AS id, m.embedding AS embedding, m.content AS content
