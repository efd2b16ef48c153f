MATCH (m:Memory)
WHERE ($namespace IS NULL OR m.namespace = $namespace)
  AND ($watermark IS NULL OR m.recorded_at > $watermark)
RETURN count(m) AS count
