"""The MCP tools: one per memory action, each a GraphQL document of ``hippograph.client``.

A tool's arguments are its document's variables less ``namespace`` (the server fills that in
from its configuration or the caller's credentials); its structured output is the document's
``data``. The annotations are hints to the agent's host, set to what each action does.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

import mcp_types as types

from hippograph.api.mcp_schema import input_schema, output_schema
from hippograph.api.schema import schema
from hippograph.client import documents, documents_more, documents_runs

SERVER_FILLED = frozenset({"namespace"})


@dataclass(frozen=True, kw_only=True)
class ToolSpec:
    name: str
    title: str
    description: str
    document: str
    read_only: bool
    destructive: bool = False
    idempotent: bool = False

    @functools.cached_property
    def tool(self) -> types.Tool:
        graphql = schema._schema
        return types.Tool(
            name=self.name,
            title=self.title,
            description=self.description,
            input_schema=input_schema(graphql, self.document, omit=SERVER_FILLED),
            output_schema=output_schema(graphql, self.document),
            annotations=types.ToolAnnotations(
                title=self.title,
                read_only_hint=self.read_only,
                destructive_hint=self.destructive,
                idempotent_hint=self.idempotent,
                open_world_hint=False,
            ),
        )

    @property
    def arguments(self) -> frozenset[str]:
        return frozenset(self.tool.input_schema["properties"])


TOOLS: tuple[ToolSpec, ...] = (
    ToolSpec(
        name="remember",
        title="Remember",
        description=(
            "Store one memory or a batch (atomically: all or none). Each goes through the write "
            "path's decision against its nearest memories (ADD, UPDATE, SUPERSEDE, CONTRADICT, "
            "or NOOP, which reinforces the identical memory); the result says which and why."
        ),
        document=documents.REMEMBER,
        # UPDATE and SUPERSEDE change existing memories, but their earlier texts and the
        # replaced facts stay in `history`: nothing is lost. Repeating reinforces (strength+1).
        read_only=False,
    ),
    ToolSpec(
        name="recall",
        title="Recall",
        description=(
            "What is relevant to a context (the current turn): hybrid seeds, graph expansion, one "
            "ranking. explain adds the seed, path and score components of each memory. Negative "
            "rules whose triggers match are always returned, flagged. A context with nothing "
            "relevant returns no memories unless includeGap. verify has the configured LLM check "
            "the best candidates (its verdict counts as use or gently decays). Not read-only: "
            "a recall counts what it returned (diagnostics), its session state and gaps."
        ),
        document=documents.RECALL,
        read_only=False,
    ),
    ToolSpec(
        name="search",
        title="Search",
        description=(
            "Plain vector top-k over active memories (no graph expansion, no upkeep), scoped as "
            "recall is: global memories, those of project and those of sessionId."
        ),
        document=documents.SEARCH,
        read_only=True,
    ),
    ToolSpec(
        name="list",
        title="List memories",
        description=(
            "Memories matching a filter (type, scope, tag, status, text, project, session), "
            "newest first; pass nextCursor back as after for the next page. Scoped as recall "
            "is: global memories, those of project and those of sessionId."
        ),
        document=documents.LIST,
        read_only=True,
    ),
    ToolSpec(
        name="forget",
        title="Forget",
        description=(
            "Archive a memory, or with hard delete it and its edges. A tombstone keeps it from "
            "coming back through ingest or rebuild."
        ),
        document=documents.FORGET,
        read_only=False,
        destructive=True,
        idempotent=True,
    ),
    ToolSpec(
        name="link",
        title="Link",
        description=(
            "Link two memories (RELATES_TO, CONTRADICTS or DERIVED_FROM); linking again "
            "reinforces the edge's confidence."
        ),
        document=documents.LINK,
        read_only=False,
    ),
    ToolSpec(
        name="tag",
        title="Tag",
        description="Add tags to a memory; returns the memory.",
        document=documents.TAG,
        read_only=False,
        idempotent=True,
    ),
    ToolSpec(
        name="untag",
        title="Untag",
        description="Remove tags from a memory; returns the memory.",
        document=documents.UNTAG,
        read_only=False,
        destructive=True,
        idempotent=True,
    ),
    ToolSpec(
        name="supersede",
        title="Supersede",
        description=(
            "Mark oldId as superseded by newId (a SUPERSEDES edge): recall then returns the new "
            "memory in its place. Returns the old memory."
        ),
        document=documents.SUPERSEDE,
        read_only=False,
        destructive=True,
        idempotent=True,
    ),
    ToolSpec(
        name="history",
        title="History",
        description=(
            "How a memory came to be: the write decisions about it, its earlier texts, the "
            "memories it superseded, those that superseded it and its contradictions."
        ),
        document=documents.HISTORY,
        read_only=True,
    ),
    ToolSpec(
        name="ingest",
        title="Ingest turns",
        description=(
            "Append conversation turns to the episode log (secrets redacted first) and extract "
            "facts from those that are due; flush extracts every buffered turn now. A turn is "
            "identified by its session and index: sending it again stores nothing."
        ),
        document=documents.INGEST,
        read_only=False,
        idempotent=True,
    ),
    ToolSpec(
        name="feedback",
        title="Feedback",
        description=(
            "Rate a recalled memory: helpful raises and confirms its confidence, unhelpful "
            "lowers it gently."
        ),
        document=documents.FEEDBACK,
        read_only=False,
    ),
    ToolSpec(
        name="context",
        title="Context for this turn",
        description=(
            "The memories relevant to a context as prompt text within a token budget: the core "
            "block, negative rules that trigger, then recalled memories grouped by kind (with the "
            "versions they replaced); the lowest-ranked are left out first. Items keep [n] refs "
            "and their ids, for used and feedback."
        ),
        document=documents.CONTEXT,
        read_only=False,
    ),
    ToolSpec(
        name="observe",
        title="Observe a turn",
        description=(
            "Next-turn mode: hand over this turn's context and return at once; its context "
            "bundle is built in the background, to be read with pending at the next turn."
        ),
        document=documents.OBSERVE,
        read_only=False,
    ),
    ToolSpec(
        name="pending",
        title="Pending context",
        description="The latest context bundle finished for a session (see observe), with its age.",
        document=documents.PENDING,
        read_only=True,
        idempotent=True,
    ),
    ToolSpec(
        name="used",
        title="Report use",
        description=(
            "Report the memories used (e.g. in one answer): each counts an access, which keeps "
            "it from fading and lifts its rank; memories used together are linked. Being "
            "returned by recall is not being used."
        ),
        document=documents.USED,
        read_only=False,
    ),
    ToolSpec(
        name="core",
        title="Core block",
        description=(
            "The memories this namespace keeps always in view (negative rules, corrections, "
            "preferences and what proved useful), and its latest changes."
        ),
        document=documents.CORE,
        read_only=True,
        idempotent=True,
    ),
    ToolSpec(
        name="profile",
        title="Profile",
        description=(
            "Who the user is and what they want (identity facts, constraints, preferences), "
            "each with its source memories, and skill proposals from procedures that worked."
        ),
        document=documents.PROFILE,
        read_only=True,
        idempotent=True,
    ),
    ToolSpec(
        name="sessions",
        title="Sessions",
        description=(
            "The conversations in the log, most recently active first: turn counts, first and "
            "last times, participants."
        ),
        document=documents_more.SESSIONS,
        read_only=True,
        idempotent=True,
    ),
    ToolSpec(
        name="conversation",
        title="Conversation",
        description=(
            "One session's turns as sent (roles, text, tool calls and results, metadata, ids), "
            "a page at a time: FORWARD from the first or BACKWARD from the last; pass "
            "nextCursor back as after."
        ),
        document=documents_more.CONVERSATION,
        read_only=True,
        idempotent=True,
    ),
    ToolSpec(
        name="erase_turn",
        title="Erase a turn",
        description=(
            "Erase one turn by its id, with the memories derived only from it and their "
            "traces; a tombstone keeps it from coming back when the transcript is sent again."
        ),
        document=documents_more.ERASE_TURN,
        read_only=False,
        destructive=True,
        idempotent=True,
    ),
    ToolSpec(
        name="clear_session",
        title="Clear a session",
        description="Erase every turn of a session, with what was derived only from them.",
        document=documents_more.CLEAR_SESSION,
        read_only=False,
        destructive=True,
        idempotent=True,
    ),
    ToolSpec(
        name="erase",
        title="Erase a subject",
        description=(
            "Erase memories (by id, or every one holding text), the turns they came from, "
            "turns holding text, and what was derived from them. dryRun says what would go."
        ),
        document=documents_more.ERASE,
        read_only=False,
        destructive=True,
        idempotent=True,
    ),
    ToolSpec(
        name="entity",
        title="Everything about",
        description=(
            'Everything known about a person, place or thing (by name, alias such as "my '
            'sister", or id): its relationships (ended ones with until), its most important '
            "current memories and its timeline, scoped as recall is (project, sessionId)."
        ),
        document=documents_more.ENTITY,
        read_only=True,
    ),
    ToolSpec(
        name="entities",
        title="Entities",
        description=(
            "The people, places and things memories mention, most mentioned first; scoped as "
            "recall is (project, sessionId)."
        ),
        document=documents_more.ENTITIES,
        read_only=True,
    ),
    ToolSpec(
        name="relate",
        title="Relate entities",
        description=(
            "State from TYPE to between two entities (WORKS_AT, KNOWS, ...); ended: it no "
            "longer holds (kept with its end, not deleted)."
        ),
        document=documents_more.RELATE,
        read_only=False,
        idempotent=True,
    ),
    ToolSpec(
        name="start_run",
        title="Start a run",
        description=(
            "Start recording your run of a task (then add_step, add_tool_call as you work, "
            "finish_run at the end). Its id names the run in the other run tools."
        ),
        document=documents_runs.START_RUN,
        read_only=False,
    ),
    ToolSpec(
        name="add_step",
        title="Record a step",
        description="Record the run's next step: your thought, the action taken, what you saw.",
        document=documents_runs.ADD_STEP,
        read_only=False,
    ),
    ToolSpec(
        name="add_tool_call",
        title="Record a tool call",
        description=(
            "Record a tool call of the run's latest step (or of step): the tool, its arguments, "
            "and, once known, its status, result, durationMs and error. Large arguments and "
            "results are summarised; secrets are redacted."
        ),
        document=documents_runs.ADD_TOOL_CALL,
        read_only=False,
    ),
    ToolSpec(
        name="update_tool_call",
        title="Report a tool call's end",
        description="Report what a recorded call returned: status, result, durationMs, error.",
        document=documents_runs.UPDATE_TOOL_CALL,
        read_only=False,
        idempotent=True,
    ),
    ToolSpec(
        name="define_entity",
        title="Define an entity",
        description=(
            "Declare a person, place or thing by name (created when unknown) with its kind "
            "(person, organisation, location, event, object, project, tool, ...) and description."
        ),
        document=documents_more.DEFINE_ENTITY,
        read_only=False,
        idempotent=True,
    ),
    ToolSpec(
        name="merge_entities",
        title="Merge entities",
        description="Record that two entities are one (split_entity undoes it).",
        document=documents_more.MERGE_ENTITIES,
        read_only=False,
    ),
    ToolSpec(
        name="split_entity",
        title="Split an entity",
        description="Undo the merge of an entity (by id).",
        document=documents_more.SPLIT_ENTITY,
        read_only=False,
        idempotent=True,
    ),
    ToolSpec(
        name="finish_run",
        title="Finish a run",
        description=(
            "End the run with its outcome. What it taught is stored as memories that recall "
            "and context bring back for a similar task: the path that worked (a procedure) "
            "and each failed route (a warning)."
        ),
        document=documents_runs.FINISH_RUN,
        read_only=False,
    ),
    ToolSpec(
        name="get_run",
        title="Read a run",
        description="A run whole: its steps in order, each with its tool calls.",
        document=documents_runs.RUN,
        read_only=False,  # a read closes a run left idle past the timeout
        idempotent=True,
    ),
    ToolSpec(
        name="similar_runs",
        title="Similar runs",
        description=(
            "Earlier runs whose task resembles this one, best first (success: only those "
            "that succeeded, or failed); read one whole with get_run."
        ),
        document=documents_runs.SIMILAR_RUNS,
        read_only=False,  # closes idle runs
        idempotent=True,
    ),
    ToolSpec(
        name="tool_stats",
        title="Tool statistics",
        description=(
            "How the tools fared in recorded runs: calls, success rate, mean duration and "
            "the most common errors, per tool or for one."
        ),
        document=documents_runs.TOOL_STATS,
        read_only=True,
        idempotent=True,
    ),
)
BY_NAME = {t.name: t for t in TOOLS}
