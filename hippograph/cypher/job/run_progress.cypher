MATCH (r:JobRun {id: $id})
SET r.done = $done, r.total = $total, r.cursor = $cursor, r.counts = $counts,
    r.heartbeat_at = $now
RETURN r.id AS id
