// The errors tool calls reported, counted per tool and text, most frequent first.
MATCH (c:ToolCall)
WHERE c.namespace = $namespace AND ($tool IS NULL OR c.tool = $tool) AND c.error IS NOT NULL
RETURN c.tool AS tool, c.error AS error, count(c) AS count
ORDER BY count DESC, error
LIMIT $limit
