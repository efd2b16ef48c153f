UNWIND $clusters AS row
MERGE (c:Cluster {id: row.id})
SET c.namespace = $namespace, c.centroid = row.centroid, c.size = row.size,
    c.label = row.label, c.generation = $generation, c.updated_at = $as_of
RETURN count(c) AS upserted
