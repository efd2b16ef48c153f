MATCH (r:JobRun {id: $id})
SET r.status = $status, r.ended_at = $now, r.done = $done, r.total = $total,
    r.cursor = $cursor, r.counts = $counts, r.error = $error
RETURN r.id AS id
