CREATE INDEX decision_target IF NOT EXISTS FOR (d:Decision) ON (d.target_id)
