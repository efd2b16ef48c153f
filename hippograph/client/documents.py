"""The GraphQL documents of the memory actions: the one copy of each call.

``hippograph.client`` sends them over HTTP and the MCP server executes them in-process, so both
speak exactly the API a person pastes into GraphiQL. Every document but ``HEALTH`` takes
``$namespace``; the rest of its variables are the action's arguments (an omitted variable takes
the default written here, which is the field's own default).
"""

from __future__ import annotations

from typing import Final

MEMORY_FIELDS: Final = """
fragment MemoryFields on Memory {
  id namespace content contentHash memoryType scope project sessionId provenance
  source { sessionId messages filePaths snippet }
  createdAt recordedAt validFrom validUntil updatedAt lastAccessed accessCount strength
  reinforcements { at sessionId message }
  confidence trustScore status supersededBy
  triggerPatterns steps prerequisites warnings tags importance
  chunk { index count start end }
}"""

REMEMBER: Final = (
    """
mutation Remember($namespace: String!, $memories: [MemoryInput!]!) {
  remembered: rememberBatch(namespace: $namespace, memories: $memories) {
    created action targetId reason memory { ...MemoryFields }
  }
}"""
    + MEMORY_FIELDS
)

RECALL: Final = (
    """
query Recall(
  $namespace: String!, $context: String!, $k: Int = 10, $project: String, $sessionId: String,
  $memoryTypes: [MemoryType!], $includeArchived: Boolean = false,
  $includeHistory: Boolean = false, $explain: Boolean = false, $verify: Boolean = false,
  $rejected: RejectedMode = DROP, $includeGap: Boolean = false, $asOf: String,
  $validAt: String
) {
  recall(
    namespace: $namespace, context: $context, k: $k, project: $project, sessionId: $sessionId,
    memoryTypes: $memoryTypes, includeArchived: $includeArchived,
    includeHistory: $includeHistory, explain: $explain, verify: $verify,
    rejected: $rejected, includeGap: $includeGap, asOf: $asOf, validAt: $validAt
  ) {
    gap bestRelevance topicReset embedMs totalMs verification
    items {
      score flagged applies rejected
      memory { ...MemoryFields }
      history { id content createdAt supersededAt validUntil reason }
      explanation {
        seed seedKinds path { fromId toId type via weight }
        cosine fulltext relevance activation speaker time recency confidence importance score
        length restated asks addressee
      }
    }
  }
}"""
    + MEMORY_FIELDS
)

SEARCH: Final = (
    """
query Search(
  $namespace: String!, $query: String!, $k: Int = 10, $asOf: String, $project: String,
  $sessionId: String, $validAt: String
) {
  results: search(
    namespace: $namespace, query: $query, k: $k, asOf: $asOf, project: $project,
    sessionId: $sessionId, validAt: $validAt
  ) {
    score memory { ...MemoryFields }
  }
}"""
    + MEMORY_FIELDS
)

LIST: Final = (
    """
query List(
  $namespace: String!, $filter: MemoryFilter, $first: Int = 20, $after: String, $asOf: String,
  $project: String, $sessionId: String
) {
  memories(namespace: $namespace, filter: $filter, first: $first, after: $after, asOf: $asOf,
           project: $project, sessionId: $sessionId) {
    items { ...MemoryFields } nextCursor
  }
}"""
    + MEMORY_FIELDS
)

MEMORY: Final = (
    """
query Memory($namespace: String!, $id: ID!, $project: String, $sessionId: String) {
  memory(namespace: $namespace, id: $id, project: $project, sessionId: $sessionId) {
    ...MemoryFields
  }
}"""
    + MEMORY_FIELDS
)

FORGET: Final = """
mutation Forget($namespace: String!, $id: ID!, $hard: Boolean = false, $reason: String = "") {
  forgotten: forget(namespace: $namespace, id: $id, hard: $hard, reason: $reason)
}"""

LINK: Final = """
mutation Link(
  $namespace: String!, $fromId: ID!, $toId: ID!, $relation: Relation = RELATES_TO,
  $weight: Float = 1.0
) {
  link(namespace: $namespace, fromId: $fromId, toId: $toId, relation: $relation, weight: $weight) {
    weight confidence
  }
}"""

TAG: Final = (
    """
mutation Tag($namespace: String!, $id: ID!, $tags: [String!]!) {
  memory: tag(namespace: $namespace, id: $id, tags: $tags) { ...MemoryFields }
}"""
    + MEMORY_FIELDS
)

UNTAG: Final = (
    """
mutation Untag($namespace: String!, $id: ID!, $tags: [String!]!) {
  memory: untag(namespace: $namespace, id: $id, tags: $tags) { ...MemoryFields }
}"""
    + MEMORY_FIELDS
)

SUPERSEDE: Final = (
    """
mutation Supersede($namespace: String!, $oldId: ID!, $newId: ID!, $reason: String = "") {
  superseded: supersede(namespace: $namespace, oldId: $oldId, newId: $newId, reason: $reason) {
    ...MemoryFields
  }
}"""
    + MEMORY_FIELDS
)

_RELATED = "id content status createdAt resolved resolution"
HISTORY: Final = f"""
query History($namespace: String!, $memoryId: ID!) {{
  history(namespace: $namespace, memoryId: $memoryId) {{
    memoryId
    decisions {{
      id at source action memoryId targetId reason decider similarity content
    }}
    versions {{ content at reason decisionId }}
    supersedes {{ {_RELATED} }}
    supersededBy {{ {_RELATED} }}
    contradicts {{ {_RELATED} }}
  }}
}}"""

INGEST: Final = """
mutation Ingest($namespace: String!, $turns: [TurnInput!]!, $flush: Boolean = false) {
  ingest(namespace: $namespace, turns: $turns, flush: $flush) {
    stored duplicates extractedTurns pendingTurns actions { action count }
    turns { id sessionId turnIndex outcome } erased
  }
}"""

FEEDBACK: Final = """
mutation Feedback($namespace: String!, $memoryId: ID!, $helpful: Boolean!) {
  feedback(namespace: $namespace, memoryId: $memoryId, helpful: $helpful) {
    memoryId confidence helpfulCount unhelpfulCount
  }
}"""

HEALTH: Final = """
query Health {
  health { backend graph embedderLoaded embeddingModel embeddingBackend }
}"""

_BUNDLE = (
    "text tokens budget format exactTokens dropped gap items { ref id section score truncated }"
)

CONTEXT: Final = f"""
query Context(
  $namespace: String!, $context: String!, $budget: Int = 1000, $format: ContextFormat = MARKDOWN,
  $sessionId: String, $project: String, $k: Int = 30
) {{
  context(
    namespace: $namespace, context: $context, budget: $budget, format: $format,
    sessionId: $sessionId, project: $project, k: $k
  ) {{ {_BUNDLE} }}
}}"""

OBSERVE: Final = """
mutation Observe(
  $namespace: String!, $sessionId: String!, $context: String!, $budget: Int = 1000,
  $format: ContextFormat = MARKDOWN, $project: String, $k: Int = 30
) {
  observe(
    namespace: $namespace, sessionId: $sessionId, context: $context, budget: $budget,
    format: $format, project: $project, k: $k
  ) { accepted replaced waiting }
}"""

PENDING: Final = f"""
query Pending($namespace: String!, $sessionId: String!) {{
  pending(namespace: $namespace, sessionId: $sessionId) {{
    context observedAt finishedAt ageMs error bundle {{ {_BUNDLE} }}
  }}
}}"""

USED: Final = """
mutation Used($namespace: String!, $memoryIds: [ID!]!) {
  used(namespace: $namespace, memoryIds: $memoryIds) {
    memoriesTouched linksCreated linksReinforced
  }
}"""

CORE: Final = (
    """
query Core($namespace: String!) {
  core(namespace: $namespace) { version updatedAt decider memories { ...MemoryFields } }
  coreChanges(namespace: $namespace, first: 5) { version at decider added removed reason }
}"""
    + MEMORY_FIELDS
)

PROFILE: Final = """
query Profile($namespace: String!) {
  profile(namespace: $namespace) {
    version updatedAt
    entries { kind attribute subject statement sources }
    skills { name steps source uses confidence }
  }
}"""
