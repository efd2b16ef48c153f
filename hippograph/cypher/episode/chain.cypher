UNWIND $pairs AS pair
MATCH (a:Episode {uid: pair.prev})
MATCH (b:Episode {uid: pair.next})
MERGE (a)-[r:NEXT]->(b)
RETURN count(r) AS chained
