// The edges among a neighbourhood's nodes, each once (from its start node), of the types the
// explorer shows, with their weights. $eids: the element ids of the nodes.
UNWIND $eids AS eid
MATCH (a) WHERE elementId(a) = eid
MATCH (a)-[r:HAS_TAG|IN_CLUSTER|DERIVED_FROM|RELATES_TO|SUPERSEDES|CONTRADICTS]->(b)
WHERE elementId(b) IN $eids
RETURN eid AS source, elementId(b) AS target, type(r) AS type, properties(r) AS props
