UNWIND $uids AS wanted
MATCH (a:Episode {uid: wanted})-[r:NEXT]->(b:Episode)
RETURN 'NEXT' AS type, a.uid AS from_id, b.uid AS to_key, properties(r) AS props
