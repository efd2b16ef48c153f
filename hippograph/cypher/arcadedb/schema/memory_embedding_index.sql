CREATE INDEX IF NOT EXISTS ON Memory (embedding) LSM_VECTOR
METADATA {"dimensions": {{dimensions}}, "similarity": "COSINE"}
