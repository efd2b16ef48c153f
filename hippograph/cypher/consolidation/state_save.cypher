MERGE (s:ConsolidationState {key: $key})
SET s.last_run_at = $last_run_at, s.watermark = $watermark
RETURN s.key AS key
