CREATE INDEX core_change_namespace_index IF NOT EXISTS FOR (c:CoreChange) ON (c.namespace)
