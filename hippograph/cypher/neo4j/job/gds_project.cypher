// Cypher projection for gds.pageRank, run through the graphdatascience client
// (gds.graph.cypher.project): active memories, RELATES_TO at or above the recall floor,
// weighted by weight x confidence, undirected (each edge counts both ways, as in-process).
MATCH (a:Memory)
WHERE a.status = 'active' AND ($namespace IS NULL OR a.namespace = $namespace)
OPTIONAL MATCH (a)-[r:RELATES_TO]->(b:Memory)
WHERE b.status = 'active' AND b <> a AND coalesce(r.confidence, 1.0) >= $floor
  AND coalesce(r.weight, 1.0) * coalesce(r.confidence, 1.0) > 0
RETURN gds.graph.project(
  $graph_name, a, b,
  {relationshipProperties: {w: coalesce(r.weight, 1.0) * coalesce(r.confidence, 1.0)}},
  {undirectedRelationshipTypes: ['*']}
)
