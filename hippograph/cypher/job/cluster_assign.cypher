// A memory that stays in its cluster keeps its edge, stamped with this generation (no
// create + prune of 100,000 edges per run at steady state); one that moves gets a new edge and
// the run's prune removes the old one. first_generation says when the edge was created, so a
// resumed run still reads the membership this run started from (job/cluster_previous).
UNWIND $rows AS row
MATCH (m:Memory {id: row.id})
MATCH (c:Cluster {id: row.cluster})
MERGE (m)-[r:IN_CLUSTER]->(c)
  ON CREATE SET r.first_generation = $generation
  ON MATCH SET r.first_generation = coalesce(r.first_generation, r.generation, '')
SET r.generation = $generation, r.score = row.score
RETURN count(r) AS assigned
