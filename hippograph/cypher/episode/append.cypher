UNWIND $rows AS row
MERGE (e:Episode {uid: row.uid})
ON CREATE SET e += row.props, e.batch = $batch
RETURN e.uid AS uid, e.batch = $batch AS created
