"""The GraphQL documents of the remaining operations: the ledger (sessions, conversation,
erasure), the views an agent reads (tags, episodes, gaps, core changes), the explorer's reads,
and the maintenance and admin actions (jobs, consolidation, rebuild, keys, audit).

Like ``documents``, each is the one copy of its call: the client sends it, the MCP server
executes the agent-facing ones in-process.
"""

from __future__ import annotations

from typing import Final

from hippograph.client.documents import MEMORY_FIELDS

EPISODE_FIELDS: Final = """
fragment EpisodeFields on Episode {
  id uid sessionId turnIndex speaker role text timestamp filePaths recordedAt highSignal
  signalKinds extractedAt extractor memoryIds messageId metadata
  toolCalls { id name arguments } toolResults { callId content status }
}"""

SESSIONS: Final = """
query Sessions($namespace: String!, $first: Int = 50, $after: String) {
  sessions(namespace: $namespace, first: $first, after: $after) {
    items { sessionId turns firstAt lastAt participants firstTurnIndex lastTurnIndex }
    nextCursor
  }
}"""

CONVERSATION: Final = (
    """
query Conversation(
  $namespace: String!, $sessionId: String!, $first: Int = 50, $after: String,
  $direction: Direction = FORWARD
) {
  conversation(
    namespace: $namespace, sessionId: $sessionId, first: $first, after: $after,
    direction: $direction
  ) { turns { ...EpisodeFields } nextCursor }
}"""
    + EPISODE_FIELDS
)

_ERASURE = """turns runs memories kept decisions rememberItems edits gaps tags entities words
    compacted dryRun
    turnIds memoryIds runIds"""

ERASE_TURN: Final = f"""
mutation EraseTurn($namespace: String!, $id: String!) {{
  erased: eraseTurn(namespace: $namespace, id: $id) {{ {_ERASURE} }}
}}"""

CLEAR_SESSION: Final = f"""
mutation ClearSession($namespace: String!, $sessionId: String!) {{
  erased: clearSession(namespace: $namespace, sessionId: $sessionId) {{ {_ERASURE} }}
}}"""

ERASE: Final = f"""
mutation Erase(
  $namespace: String!, $memoryIds: [ID!], $turnIds: [String!], $text: String,
  $dryRun: Boolean = false
) {{
  erased: erase(
    namespace: $namespace, memoryIds: $memoryIds, turnIds: $turnIds, text: $text,
    dryRun: $dryRun
  ) {{ {_ERASURE} }}
}}"""

EPISODES: Final = (
    """
query Episodes($namespace: String!, $sessionId: String, $first: Int = 50, $after: String) {
  episodes(namespace: $namespace, sessionId: $sessionId, first: $first, after: $after) {
    ...EpisodeFields
  }
}"""
    + EPISODE_FIELDS
)

TAGS: Final = """
query Tags($namespace: String!, $first: Int = 100) {
  tags(namespace: $namespace, first: $first) { name count description }
}"""

GAPS: Final = """
query Gaps($namespace: String!, $first: Int = 20) {
  gaps(namespace: $namespace, first: $first) { id context bestScore count firstAt lastAt }
}"""

CORE_CHANGES: Final = """
query CoreChanges($namespace: String!, $first: Int = 20) {
  coreChanges(namespace: $namespace, first: $first) {
    version at decider added removed reason
  }
}"""

NEIGHBOURHOOD: Final = (
    """
query Neighbourhood(
  $namespace: String!, $id: ID!, $depth: Int = 1, $includeSuperseded: Boolean = false,
  $includeArchived: Boolean = false, $limit: Int = 100, $project: String, $sessionId: String
) {
  neighbourhood(
    namespace: $namespace, id: $id, depth: $depth, includeSuperseded: $includeSuperseded,
    includeArchived: $includeArchived, limit: $limit, project: $project, sessionId: $sessionId
  ) {
    root truncated
    nodes {
      key kind id label depth tagCount clusterSize
      memory { ...MemoryFields } episode { ...EpisodeFields }
    }
    edges { source target type weight confidence kind resolved }
  }
}"""
    + MEMORY_FIELDS
    + EPISODE_FIELDS
)

CLUSTERS: Final = """
query Clusters($namespace: String!, $first: Int = 100, $project: String, $sessionId: String) {
  clusters(namespace: $namespace, first: $first, project: $project, sessionId: $sessionId) {
    id label size updatedAt members
  }
}"""

PROVENANCE: Final = (
    """
query Provenance($namespace: String!, $memoryId: ID!, $project: String, $sessionId: String) {
  provenance(namespace: $namespace, memoryId: $memoryId, project: $project, sessionId: $sessionId) {
    via episode { ...EpisodeFields }
  }
}"""
    + EPISODE_FIELDS
)

_JOB_RUN = """id name status trigger scope holder startedAt endedAt asOf done total counts error
    resumedFrom"""

JOB_RUNS: Final = f"""
query JobRuns($name: JobName, $first: Int = 20) {{
  jobRuns(name: $name, first: $first) {{ {_JOB_RUN} }}
}}"""

RUN_JOB: Final = f"""
mutation RunJob($name: JobName!, $force: Boolean = false, $namespace: String) {{
  runJob(name: $name, force: $force, namespace: $namespace) {{ {_JOB_RUN} }}
}}"""

CONSOLIDATE: Final = """
mutation Consolidate($namespace: String, $dryRun: Boolean = false, $force: Boolean = false) {
  consolidate(namespace: $namespace, dryRun: $dryRun, force: $force) {
    runId ran dryRun scope skipped startedAt finishedAt counts errors watermarkBefore
    watermarkAfter operations { op namespace keep other reason decider }
    entityMerges { namespace keep keepName other otherName reason }
  }
}"""

REBUILD: Final = """
mutation Rebuild($namespace: String!) {
  rebuild(namespace: $namespace) { episodes rememberEvents active actions { action count } }
}"""

_KEY = "id name role namespaces createdAt rotatedAt revokedAt"

KEYS: Final = f"""
query Keys {{
  keys {{ {_KEY} }}
}}"""

CREATE_KEY: Final = f"""
mutation CreateKey($name: String!, $role: Role!, $namespaces: [String!]!) {{
  createKey(name: $name, role: $role, namespaces: $namespaces) {{ token key {{ {_KEY} }} }}
}}"""

ROTATE_KEY: Final = f"""
mutation RotateKey($id: ID!) {{
  rotateKey(id: $id) {{ token key {{ {_KEY} }} }}
}}"""

REVOKE_KEY: Final = f"""
mutation RevokeKey($id: ID!) {{
  revokeKey(id: $id) {{ {_KEY} }}
}}"""

AUDIT: Final = """
query Audit($namespace: String, $since: DateTime, $limit: Int = 100) {
  audit(namespace: $namespace, since: $since, limit: $limit) {
    at keyId operation namespace outcome
  }
}"""

ENTITY_FIELDS: Final = """
fragment EntityFields on Entity {
  uid name canonical kind aliases description firstSeen lastSeen mentions mergedInto
  importance
}"""

_RELATIONSHIP = """type outgoing otherUid otherName otherKind since until source recordedAt"""

ENTITY: Final = (
    f"""
query Entity(
  $namespace: String!, $name: String, $id: ID, $memories: Int = 10, $timeline: Int = 50,
  $types: [String!], $project: String, $sessionId: String
) {{
  entity(namespace: $namespace, name: $name, id: $id, memories: $memories, timeline: $timeline,
         types: $types, project: $project, sessionId: $sessionId) {{
    entity {{ ...EntityFields }}
    merged {{ uid name at reason }}
    relationships {{ {_RELATIONSHIP} }}
    memories {{ ...MemoryFields }}
    timeline {{ at role memory {{ ...MemoryFields }} }}
  }}
}}"""
    + ENTITY_FIELDS
    + MEMORY_FIELDS
)

ENTITIES: Final = (
    """
query Entities(
  $namespace: String!, $kind: String, $query: String = "", $first: Int = 50, $project: String,
  $sessionId: String
) {
  entities(namespace: $namespace, kind: $kind, query: $query, first: $first, project: $project,
           sessionId: $sessionId) {
    ...EntityFields
  }
}"""
    + ENTITY_FIELDS
)

DEFINE_ENTITY: Final = (
    """
mutation DefineEntity($namespace: String!, $name: String!, $kind: String, $description: String) {
  entity: defineEntity(namespace: $namespace, name: $name, kind: $kind,
                       description: $description) { ...EntityFields }
}"""
    + ENTITY_FIELDS
)

RELATE: Final = f"""
mutation Relate(
  $namespace: String!, $from: String!, $type: String!, $to: String!, $kind: String,
  $since: String, $ended: Boolean = false
) {{
  relate(namespace: $namespace, from: $from, type: $type, to: $to, kind: $kind, since: $since,
         ended: $ended) {{ {_RELATIONSHIP} }}
}}"""

MERGE_ENTITIES: Final = (
    """
mutation MergeEntities($namespace: String!, $from: String!, $into: String!, $reason: String = "") {
  entity: mergeEntities(namespace: $namespace, from: $from, into: $into, reason: $reason) {
    ...EntityFields
  }
}"""
    + ENTITY_FIELDS
)

SPLIT_ENTITY: Final = (
    """
mutation SplitEntity($namespace: String!, $id: ID!) {
  entity: splitEntity(namespace: $namespace, id: $id) { ...EntityFields }
}"""
    + ENTITY_FIELDS
)
