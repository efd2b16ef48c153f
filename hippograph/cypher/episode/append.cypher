// A turn already in the log is left as it was; its text comes back so that a different one
// sent under the same (session, turn index) is refused as a conflict.
UNWIND $rows AS row
MERGE (e:Episode {uid: row.uid})
ON CREATE SET e += row.props, e.batch = $batch
RETURN e.uid AS uid, e.batch = $batch AS created, e.text AS text
