CREATE INDEX job_run_name IF NOT EXISTS FOR (r:JobRun) ON (r.name)
