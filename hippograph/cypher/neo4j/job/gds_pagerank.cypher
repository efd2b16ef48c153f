CALL gds.pageRank.stream($graph_name, {
  relationshipWeightProperty: 'w',
  dampingFactor: $damping,
  maxIterations: $max_iterations,
  tolerance: $tolerance
})
YIELD nodeId, score
WITH gds.util.asNode(nodeId) AS m, score
RETURN m.id AS id, score
