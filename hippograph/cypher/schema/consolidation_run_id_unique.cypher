CREATE CONSTRAINT consolidation_run_id_unique IF NOT EXISTS FOR (r:ConsolidationRun) REQUIRE r.id IS UNIQUE
