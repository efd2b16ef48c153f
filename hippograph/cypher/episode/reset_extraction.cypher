// The first extraction's time is kept: rebuild replays each turn when it was first extracted
// (a buffered turn after the remembers made while it waited), so their decisions are the same;
// a turn not yet extracted is replayed where it was recorded, and keeps that place.
MATCH (e:Episode)
WHERE e.namespace = $namespace
SET e.first_extracted_at = coalesce(e.first_extracted_at, e.extracted_at, e.recorded_at),
    e.extracted_at = null, e.extractor = null
RETURN count(e) AS reset
