// $groups: one entry per source memory, {source, edges: {target id: {anchor, windows,
// confidence}}}; each source is found once and its edges walked.
// Skips an edge reinforced since it was read: its decay starts over from that reinforcement. The
// first SET takes the edge's write lock (Neo4j), so the check reads the latest committed values.
UNWIND $groups AS g
MATCH (a:Memory {id: g.source})-[r:RELATES_TO]->(b:Memory)
WITH r, g.edges[b.id] AS row
WHERE row IS NOT NULL
SET r.decay_checked_at = $as_of
WITH r, row
WHERE coalesce(r.last_reinforced_at, r.created_at) = row.anchor
SET r.confidence = row.confidence, r.decay_anchor = row.anchor, r.decay_windows = row.windows,
    r.decayed_at = $as_of
RETURN count(r) AS updated
