CREATE CONSTRAINT consolidation_state_key_unique IF NOT EXISTS FOR (s:ConsolidationState) REQUIRE s.key IS UNIQUE
