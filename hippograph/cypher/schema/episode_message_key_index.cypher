CREATE INDEX episode_message_key IF NOT EXISTS FOR (e:Episode) ON (e.message_key)
