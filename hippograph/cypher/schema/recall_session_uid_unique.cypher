CREATE CONSTRAINT recall_session_uid_unique IF NOT EXISTS FOR (s:RecallSession) REQUIRE s.uid IS UNIQUE
