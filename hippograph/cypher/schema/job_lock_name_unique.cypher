CREATE CONSTRAINT job_lock_name_unique IF NOT EXISTS FOR (l:JobLock) REQUIRE l.name IS UNIQUE
