CREATE INDEX tool_call_namespace IF NOT EXISTS FOR (n:ToolCall) ON (n.namespace)
