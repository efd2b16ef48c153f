CREATE INDEX word_namespace IF NOT EXISTS FOR (w:Word) ON (w.namespace)
