"""A finished run's lesson: what it was for, the path that worked, what failed and why, and
where it applies again.

Offline rules (``offline``), deterministic:

- the goal is the task;
- the path is the run's steps in order, each by its action and the tools that succeeded in
  it; a step whose calls all failed is not on the path, a step that only thought is not
  either, and a step repeated at once (a retry) counts once;
- a failure is a failed call (failure, error, timeout) with its error as the cause, once per
  tool and cause;
- the conditions are the task's key words (``key_words``).

The configured LLM may write the same lesson (``with_llm``): one call, an answer in strict
JSON checked field by field; any fault, and the offline lesson stands. Either way the keys that
recognise the same path again (``path_key``, ``route_key``) come from the calls themselves, so
a model's wording cannot split or merge paths.
"""

from __future__ import annotations

import hashlib
import json
import logging
from collections.abc import Sequence
from dataclasses import dataclass, replace
from itertools import combinations

from hippograph.graph.errors import LLMError
from hippograph.graph.models.llm import JsonCompleter
from hippograph.graph.runs.model import Run, RunStep, RunToolCall
from hippograph.graph.text import fulltext
from hippograph.graph.text.stopwords import STOPWORDS

log = logging.getLogger(__name__)
SCHEMA_NAME = "run_lesson"
MAX_STEPS = 30
MAX_ITEM_CHARS = 300
KEY_WORDS = 6  # of the task, as the conditions
PAIRED_WORDS = 4  # trigger patterns: pairs of the first of them
_ARG_CHARS = 60
_LESSON_KEYS = frozenset({"goal", "steps", "failures", "applies_when"})
_FAILURE_KEYS = frozenset({"route", "cause"})


@dataclass(frozen=True, kw_only=True)
class Failure:
    route: str  # the tool and what it was given
    cause: str  # what it reported
    tool: str = ""


@dataclass(frozen=True, kw_only=True)
class Lesson:
    """What a run taught. ``path_key``: the tools of the path that worked, in order (None when
    no call succeeded); ``route_key``: of every tool the run tried; ``distiller``: ``rules`` or
    ``llm``."""

    goal: str
    success: bool
    steps: tuple[str, ...]
    failures: tuple[Failure, ...]
    applies_when: tuple[str, ...]
    path_key: str | None
    route_key: str | None
    recovered: tuple[str, ...] = ()  # tools that failed, then worked on a retry
    distiller: str = "rules"


def key_words(task: str) -> tuple[str, ...]:
    """The task's distinctive words, in order: no function words, times or quantities."""
    words = [w for w in fulltext.words(task) if w not in STOPWORDS and len(w) > 2]
    return tuple(words[:KEY_WORDS])


def trigger_patterns(words: Sequence[str]) -> tuple[str, ...]:
    """Patterns a later context matches when it shares two of the task's first key words (one
    shared word says little: "report" is in many tasks); a one-word task: that word."""
    head = list(words[:PAIRED_WORDS])
    if len(head) < 2:
        return tuple(head)
    return tuple(f"{a} {b}" for a, b in combinations(head, 2))


def offline(run: Run) -> Lesson:
    calls = [c for step in run.steps for c in step.tool_calls]
    worked = [c for c in calls if c.status == "success"]
    failed = [c for c in calls if c.failed]
    recovered = {c.tool for c in failed} & {c.tool for c in worked}
    path: list[str] = []
    for step in run.steps:
        entry = _step_entry(step)
        if entry is not None and (not path or path[-1] != entry):
            path.append(entry)
    failures: dict[tuple[str, str], Failure] = {}
    for call in failed:
        cause = call.error or call.status
        failures.setdefault(
            (call.tool, cause), Failure(route=_label(call), cause=cause, tool=call.tool)
        )
    return Lesson(
        goal=run.task,
        success=bool(run.success),
        steps=tuple(_clip(s) for s in path[:MAX_STEPS]),
        failures=tuple(failures.values()),
        applies_when=key_words(run.task),
        path_key=_key([c.tool for c in worked]) if run.success else None,
        route_key=_key([c.tool for c in calls]),
        recovered=tuple(sorted(recovered)),
    )


def _step_entry(step: RunStep) -> str | None:
    """A step as one line of the path: its action and the tools that worked in it."""
    if step.tool_calls and not any(c.status == "success" for c in step.tool_calls):
        return None
    tools: list[str] = []
    for call in step.tool_calls:
        label = _label(call)
        if call.status == "success" and (not tools or tools[-1] != label):
            tools.append(label)
    if step.action and tools:
        named = [t for t in tools if t.split("(")[0] != step.action]
        return f"{step.action} ({', '.join(named)})" if named else step.action
    if tools:
        return ", then ".join(tools)
    return step.action


def _label(call: RunToolCall) -> str:
    """``tool(key=value, ...)``, the values short: what distinguishes one route from another."""
    args = call.arguments
    if isinstance(args, dict) and args and "truncated" not in args:
        parts = [f"{k}={_short(v)}" for k, v in list(args.items())[:4]]
        return f"{call.tool}({', '.join(parts)})"
    return call.tool


def _short(value: object) -> str:
    text = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)
    return text if len(text) <= _ARG_CHARS else text[: _ARG_CHARS - 3] + "..."


def _clip(text: str) -> str:
    return text if len(text) <= MAX_ITEM_CHARS else text[: MAX_ITEM_CHARS - 3] + "..."


def _key(tools: Sequence[str]) -> str | None:
    """The tools in order, retries collapsed, as a digest; None when there are none."""
    collapsed = [t for i, t in enumerate(tools) if i == 0 or tools[i - 1] != t]
    if not collapsed:
        return None
    return hashlib.sha256("\x1f".join(collapsed).encode("utf-8")).hexdigest()[:32]


_SYSTEM_PROMPT = """\
You turn an AI agent's recorded run of a task into reusable experience.
Answer with one JSON object and nothing else, exactly this shape:
{"goal": string, "steps": [string], "failures": [{"route": string, "cause": string}], \
"applies_when": [string]}
Rules:
- goal: what the agent was trying to achieve, in one sentence.
- steps: the path that finally worked, in order, one short imperative line each; only the \
steps that mattered, never a retry twice; [] if the run did not succeed.
- failures: each route that failed and why ("pdftotext(file=a.pdf)" / "loses the tables"); \
[] if none failed.
- applies_when: a few short lowercase key words or phrases saying where this applies again.
- At most 300 characters per string; never invent a step or a cause the run does not show."""


def _render(run: Run) -> str:
    lines = [f"Task: {run.task}", f"Outcome: {'success' if run.success else 'failure'}"
             + (f" ({run.outcome})" if run.outcome else "")]  # fmt: skip
    for step in run.steps:
        texts = [f"{k}: {v}" for k, v in (("thought", step.thought), ("action", step.action),
                 ("observation", step.observation)) if v]  # fmt: skip
        lines.append(f"Step {step.n}. " + "; ".join(texts))
        for call in step.tool_calls:
            said = f" error: {call.error}" if call.error else ""
            lines.append(f"  call {_label(call)} -> {call.status}{said}")
    return "\n".join(lines)


def with_llm(client: JsonCompleter, run: Run, fallback: Lesson) -> Lesson:
    """The model's lesson of ``run``, keeping ``fallback``'s keys; ``fallback`` itself when the
    call fails or its answer breaks the schema anywhere."""
    try:
        payload = client.complete_json(_SYSTEM_PROMPT, _render(run), schema_name=SCHEMA_NAME)
        return parse_lesson(payload, fallback)
    except LLMError as exc:
        log.warning("run %s distilled by the offline rules: %s", run.id, exc)
        return fallback


def parse_lesson(payload: object, fallback: Lesson) -> Lesson:
    """Validate a model's lesson; the first violation raises ``LLMError``."""
    if not isinstance(payload, dict) or set(payload) != _LESSON_KEYS:
        raise LLMError(f"{SCHEMA_NAME}: expected an object with exactly {sorted(_LESSON_KEYS)}")
    failures = payload["failures"]
    if not isinstance(failures, list) or len(failures) > MAX_STEPS:
        raise LLMError(f"{SCHEMA_NAME}: failures must be a list of at most {MAX_STEPS}")
    parsed = []
    for i, item in enumerate(failures):
        if not isinstance(item, dict) or set(item) != _FAILURE_KEYS:
            raise LLMError(f"{SCHEMA_NAME}: failures[{i}] must be {{route, cause}}")
        parsed.append(Failure(route=_string(item["route"], f"failures[{i}].route"),
                              cause=_string(item["cause"], f"failures[{i}].cause")))  # fmt: skip
    steps = _strings(payload["steps"], "steps")
    if fallback.success and not steps:
        raise LLMError(f"{SCHEMA_NAME}: steps is empty for a run that succeeded")
    return replace(
        fallback,
        goal=_string(payload["goal"], "goal"),
        steps=steps if fallback.success else (),
        failures=tuple(parsed),
        applies_when=_strings(payload["applies_when"], "applies_when") or fallback.applies_when,
        distiller="llm",
    )


def _string(value: object, where: str) -> str:
    if not isinstance(value, str) or not value.strip():
        raise LLMError(f"{SCHEMA_NAME}: {where} must be a non-empty string")
    if len(value.strip()) > MAX_ITEM_CHARS:
        raise LLMError(f"{SCHEMA_NAME}: {where} is longer than {MAX_ITEM_CHARS} characters")
    return value.strip()


def _strings(value: object, where: str) -> tuple[str, ...]:
    if not isinstance(value, list) or len(value) > MAX_STEPS:
        raise LLMError(f"{SCHEMA_NAME}: {where} must be a list of at most {MAX_STEPS} strings")
    return tuple(_string(v, f"{where}[{i}]") for i, v in enumerate(value))
