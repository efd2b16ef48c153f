"""The GraphQL documents of agent runs: recording one as the agent works, finishing it (which
distils its experience), and reading runs, similar runs and tool statistics. Like
``documents``, each is the one copy of its call: the client sends it, the MCP server executes
it in-process."""

from __future__ import annotations

from typing import Final

RUN_FIELDS: Final = """
fragment RunFields on Run {
  id sessionId agent task started ended outcome success status stepCount callCount experience
}"""

CALL_FIELDS: Final = """
fragment CallFields on RunToolCall {
  id runId step seq tool arguments result status durationMs error at updated
}"""

STEP_FIELDS: Final = (
    """
fragment StepFields on RunStep {
  runId n thought action observation at toolCalls { ...CallFields }
}"""
    + CALL_FIELDS
)

START_RUN: Final = (
    """
mutation StartRun($namespace: String!, $task: String!, $sessionId: String, $agent: String) {
  startRun(namespace: $namespace, task: $task, sessionId: $sessionId, agent: $agent) {
    ...RunFields
  }
}"""
    + RUN_FIELDS
)

ADD_STEP: Final = (
    """
mutation AddStep(
  $namespace: String!, $runId: ID!, $thought: String, $action: String, $observation: String
) {
  addStep(
    namespace: $namespace, runId: $runId, thought: $thought, action: $action,
    observation: $observation
  ) { ...StepFields }
}"""
    + STEP_FIELDS
)

ADD_TOOL_CALL: Final = (
    """
mutation AddToolCall(
  $namespace: String!, $runId: ID!, $tool: String!, $arguments: JSON, $step: Int,
  $result: JSON, $status: ToolCallStatus = PENDING, $durationMs: Float, $error: String
) {
  addToolCall(
    namespace: $namespace, runId: $runId, tool: $tool, arguments: $arguments, step: $step,
    result: $result, status: $status, durationMs: $durationMs, error: $error
  ) { ...CallFields }
}"""
    + CALL_FIELDS
)

UPDATE_TOOL_CALL: Final = (
    """
mutation UpdateToolCall(
  $namespace: String!, $id: ID!, $status: ToolCallStatus, $result: JSON, $durationMs: Float,
  $error: String
) {
  updateToolCall(
    namespace: $namespace, id: $id, status: $status, result: $result, durationMs: $durationMs,
    error: $error
  ) { ...CallFields }
}"""
    + CALL_FIELDS
)

FINISH_RUN: Final = (
    """
mutation FinishRun($namespace: String!, $runId: ID!, $success: Boolean!, $outcome: String) {
  finishRun(namespace: $namespace, runId: $runId, success: $success, outcome: $outcome) {
    run { ...RunFields }
    experience { memoryId kind action content }
    distiller
  }
}"""
    + RUN_FIELDS
)

RUN: Final = (
    """
query Run($namespace: String!, $id: ID!) {
  run(namespace: $namespace, id: $id) { ...RunFields steps { ...StepFields } }
}"""
    + RUN_FIELDS
    + STEP_FIELDS
)

RUNS: Final = (
    """
query Runs($namespace: String!, $sessionId: String, $first: Int = 20) {
  runs(namespace: $namespace, sessionId: $sessionId, first: $first) { ...RunFields }
}"""
    + RUN_FIELDS
)

MEMORY_RUNS: Final = (
    """
query MemoryRuns($namespace: String!, $memoryId: ID!) {
  memoryRuns(namespace: $namespace, memoryId: $memoryId) { ...RunFields }
}"""
    + RUN_FIELDS
)

SIMILAR_RUNS: Final = (
    """
query SimilarRuns($namespace: String!, $task: String!, $k: Int = 5, $success: Boolean) {
  similarRuns(namespace: $namespace, task: $task, k: $k, success: $success) {
    score run { ...RunFields }
  }
}"""
    + RUN_FIELDS
)

TOOL_STATS: Final = """
query ToolStats($namespace: String!, $tool: String) {
  toolStats(namespace: $namespace, tool: $tool) {
    tool calls successes failures successRate meanDurationMs commonErrors { error count }
  }
}"""
