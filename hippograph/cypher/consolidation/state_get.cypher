OPTIONAL MATCH (s:ConsolidationState {key: $key})
RETURN s.last_run_at AS last_run_at, s.watermark AS watermark
