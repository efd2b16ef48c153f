// Close runs nobody wrote to since $cutoff; one written to meanwhile is left open.
UNWIND $ids AS id
MATCH (r:Run {id: id})
WITH r
WHERE r.namespace = $namespace AND r.ended IS NULL AND r.touched < $cutoff
SET r.ended = $now, r.status = 'abandoned', r.success = false,
    r.outcome = coalesce(r.outcome, $outcome)
RETURN r.id AS id
