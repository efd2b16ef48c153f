"""Knowing, not finding: realistic stories told through the public API, then checked the way a
user's agent asks (the format: bench/scenarios/README.md).

    python bench/semantics.py --embedded [--json OUT] [--only CATEGORY_OR_ID ...] [--show-failures]
    python bench/semantics.py --server http://127.0.0.1:8000/graphql [--key TOKEN]

Each scenario gets a fresh namespace (``sem-<run>-<id>``), so a server can be reused. Prints the
passed checks per category and overall, and with ``--show-failures`` what each failed check got.
"""

from __future__ import annotations

import argparse
import json
import secrets
import sys
import tempfile
import time
from collections import defaultdict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta
from pathlib import Path
from typing import Any

import yaml

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.server import serve  # noqa: E402
from hippograph.client import Client  # noqa: E402

SCENARIOS = Path(__file__).parent / "scenarios"
CATEGORIES = (
    "update",
    "forget",
    "constraints",
    "instructions",
    "relations",
    "noise",
    "time",
    "experience",
)
CALLS = ("recall", "context", "search", "core", "memories")
ROLES = ("user", "assistant", "system", "tool")
# remember's optional fields, by the scenario key (the GraphQL name where they differ).
REMEMBER_FIELDS = {
    "content": "content",
    "type": "memoryType",
    "scope": "scope",
    "project": "project",
    "sessionId": "sessionId",
    "tags": "tags",
    "triggerPatterns": "triggerPatterns",
    "steps": "steps",
    "prerequisites": "prerequisites",
    "warnings": "warnings",
    "occurredAt": "occurredAt",
    "confidence": "confidence",
    "provenance": "provenance",
}
DEFAULT_AT = "2025-01-06T09:00:00Z"
MEMORY_FIELDS = "id content memoryType status steps warnings prerequisites"

RECALL = f"""query($ns: String!, $q: String!, $k: Int!, $asOf: String, $validAt: String) {{
  recall(namespace: $ns, context: $q, k: $k, asOf: $asOf, validAt: $validAt) {{
    gap items {{ score flagged memory {{ {MEMORY_FIELDS} }} }} }} }}"""
SEARCH = f"""query($ns: String!, $q: String!, $k: Int!, $asOf: String, $validAt: String) {{
  search(namespace: $ns, query: $q, k: $k, asOf: $asOf, validAt: $validAt) {{
    score memory {{ {MEMORY_FIELDS} }} }} }}"""
CONTEXT = """query($ns: String!, $q: String!, $budget: Int!) {
  context(namespace: $ns, context: $q, budget: $budget) { text gap tokens } }"""
CORE = f"""query($ns: String!) {{ core(namespace: $ns) {{ memories {{ {MEMORY_FIELDS} }} }} }}"""
MEMORIES = f"""query($ns: String!, $after: String, $asOf: String, $filter: MemoryFilter) {{
  memories(namespace: $ns, first: 100, after: $after, asOf: $asOf, filter: $filter) {{
    nextCursor items {{ {MEMORY_FIELDS} }} }} }}"""
INGEST = """mutation($ns: String!, $turns: [TurnInput!]!) {
  ingest(namespace: $ns, turns: $turns, flush: true) { stored } }"""
REMEMBER = """mutation($ns: String!, $m: MemoryInput!) {
  remember(namespace: $ns, memory: $m) { memory { id } } }"""
SUPERSEDE = """mutation($ns: String!, $old: ID!, $new: ID!, $reason: String!) {
  supersede(namespace: $ns, oldId: $old, newId: $new, reason: $reason) { id } }"""
START_RUN = """mutation($ns: String!, $task: String!, $session: String, $agent: String) {
  startRun(namespace: $ns, task: $task, sessionId: $session, agent: $agent) { id } }"""
ADD_STEP = """mutation($ns: String!, $run: ID!, $thought: String, $action: String, $observation: String) {
  addStep(namespace: $ns, runId: $run, thought: $thought, action: $action,
          observation: $observation) { n } }"""
ADD_TOOL_CALL = """mutation($ns: String!, $run: ID!, $tool: String!, $arguments: JSON, $result: JSON,
  $status: ToolCallStatus!, $durationMs: Float, $error: String) {
  addToolCall(namespace: $ns, runId: $run, tool: $tool, arguments: $arguments, result: $result,
              status: $status, durationMs: $durationMs, error: $error) { id } }"""
FINISH_RUN = """mutation($ns: String!, $run: ID!, $success: Boolean!, $outcome: String) {
  finishRun(namespace: $ns, runId: $run, success: $success, outcome: $outcome) { distiller } }"""
FORGET = """mutation($ns: String!, $id: ID!, $hard: Boolean!) {
  forget(namespace: $ns, id: $id, hard: $hard) }"""
RUN_JOB = """mutation($name: JobName!, $ns: String) {
  runJob(name: $name, namespace: $ns, force: true) { id } }"""
JOB_RUNS = """query($name: JobName) { jobRuns(name: $name, first: 20) { id status error } }"""


class ScenarioError(ValueError):
    """A scenario file that does not follow bench/scenarios/README.md."""


@dataclass(frozen=True)
class Expect:
    words: tuple[str, ...]
    top: int | None  # within the first `top` results; None: all returned

    def rank(self, texts: Sequence[str]) -> int | None:
        """The first rank (0-based) within ``top`` whose text holds every word."""
        limit = len(texts) if self.top is None else min(self.top, len(texts))
        return next(
            (i for i in range(limit) if all(w in texts[i].lower() for w in self.words)), None
        )


@dataclass(frozen=True)
class Check:
    call: str
    ask: str
    args: dict[str, Any]
    present: tuple[Expect, ...]
    absent: tuple[Expect, ...]
    order: tuple[tuple[Expect, Expect], ...]


@dataclass(frozen=True)
class Scenario:
    id: str
    category: str
    title: str
    story: tuple[dict[str, Any], ...]
    checks: tuple[Check, ...]
    path: Path


@dataclass
class Outcome:
    scenario: str
    category: str
    check: int
    call: str
    ask: str
    passed: bool
    failures: list[str] = field(default_factory=list)
    got: list[str] = field(default_factory=list)


# ---------------------------------------------------------------- loading


def _keys(
    where: str, value: object, allowed: Iterable[str], required: Iterable[str] = ()
) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise ScenarioError(f"{where}: expected a mapping, got {type(value).__name__}")
    unknown = set(value) - set(allowed)
    if unknown:
        raise ScenarioError(f"{where}: unknown keys {sorted(unknown)}; allowed {sorted(allowed)}")
    missing = set(required) - set(value)
    if missing:
        raise ScenarioError(f"{where}: missing keys {sorted(missing)}")
    return value


def _expect(where: str, raw: object) -> Expect:
    item = _keys(where, raw, ("words", "top"), ("words",))
    words = [str(w) if isinstance(w, (int, float, date)) else w for w in item["words"]]
    if not isinstance(words, list) or not words or not all(isinstance(w, str) for w in words):
        raise ScenarioError(f"{where}.words: a non-empty list of strings")
    top = item.get("top")
    if top is not None and (not isinstance(top, int) or top < 1):
        raise ScenarioError(f"{where}.top: a positive integer")
    return Expect(tuple(w.lower() for w in words), top)


def _order_expect(where: str, raw: object) -> Expect:
    if isinstance(raw, list):
        return _expect(where, {"words": raw})
    return _expect(where, raw)


def _check(where: str, raw: object) -> Check:
    allowed = (
        "call", "ask", "k", "budget", "asOf", "validAt", "types", "present", "absent", "order"
    )  # fmt: skip
    item = _keys(where, raw, allowed, ("call",))
    call = item["call"]
    if call not in CALLS:
        raise ScenarioError(f"{where}.call: one of {CALLS}, not {call!r}")
    if call in ("recall", "context", "search") and not isinstance(item.get("ask"), str):
        raise ScenarioError(f"{where}.ask: {call} needs the question or task as a string")
    if not any(item.get(key) for key in ("present", "absent", "order")):
        raise ScenarioError(f"{where}: a check needs present, absent or order")
    order = []
    for i, pair in enumerate(item.get("order") or []):
        if not isinstance(pair, list) or len(pair) != 2:
            raise ScenarioError(f"{where}.order[{i}]: a pair [[words], [words]]")
        order.append((_order_expect(f"{where}.order[{i}]", pair[0]), _order_expect(where, pair[1])))
    keys = ("k", "budget", "asOf", "validAt", "types")
    args: dict[str, Any] = {k: item[k] for k in keys if k in item}
    for key in ("asOf", "validAt"):
        if isinstance(args.get(key), datetime):  # YAML reads an unquoted timestamp as one
            args[key] = args[key].isoformat()
    return Check(
        call=call,
        ask=str(item.get("ask", "")),
        args=args,
        present=tuple(
            _expect(f"{where}.present[{i}]", e) for i, e in enumerate(item.get("present") or [])
        ),
        absent=tuple(
            _expect(f"{where}.absent[{i}]", e) for i, e in enumerate(item.get("absent") or [])
        ),
        order=tuple(order),
    )


STEP_KEYS = {
    "ingest": (("session", "at", "turns"), ("turns",)),
    "remember": ((*REMEMBER_FIELDS, "name"), ("content",)),
    "supersede": (("old", "new", "reason"), ("old", "new")),
    "forget": (("name", "find", "hard"), ()),
    "run": (
        ("task", "session", "agent", "steps", "success", "outcome"),
        ("task", "steps", "success"),
    ),
    "wait": None,
}
RUN_STEP_KEYS = ("thought", "action", "observation", "tools")
TOOL_KEYS = ("tool", "arguments", "result", "status", "error", "durationMs")


def _step(where: str, raw: object) -> dict[str, Any]:
    if not isinstance(raw, dict) or len(raw) != 1:
        raise ScenarioError(f"{where}: one of {sorted(STEP_KEYS)} as a single key")
    ((kind, body),) = raw.items()
    if kind not in STEP_KEYS:
        raise ScenarioError(f"{where}: unknown step {kind!r}; one of {sorted(STEP_KEYS)}")
    spec = STEP_KEYS[kind]
    if spec is None:
        if not isinstance(body, (int, float)) or body < 0:
            raise ScenarioError(f"{where}.wait: seconds, a number >= 0")
        return {kind: body}
    _keys(f"{where}.{kind}", body, *spec)
    if kind == "forget" and ("name" in body) == ("find" in body):
        raise ScenarioError(f"{where}.forget: exactly one of name or find")
    if kind == "run":
        _run_steps(f"{where}.run", body)
    if kind == "ingest":
        turns = body["turns"]
        if not isinstance(turns, list) or not turns:
            raise ScenarioError(f"{where}.ingest.turns: a non-empty list")
        for i, turn in enumerate(turns):
            if not isinstance(turn, dict) or len(turn) != 1 or next(iter(turn)) not in ROLES:
                raise ScenarioError(f"{where}.ingest.turns[{i}]: {{role: text}}, role in {ROLES}")
            if not isinstance(next(iter(turn.values())), str):
                raise ScenarioError(f"{where}.ingest.turns[{i}]: the text is a string")
    return {kind: body}


def _run_steps(where: str, body: dict[str, Any]) -> None:
    """A run's steps: each {thought, action, observation, tools}, each tool {tool, arguments,
    result, status (default success), error, durationMs}."""
    if not isinstance(body["success"], bool):
        raise ScenarioError(f"{where}.success: true or false")
    steps = body["steps"]
    if not isinstance(steps, list) or not steps:
        raise ScenarioError(f"{where}.steps: a non-empty list")
    for i, step in enumerate(steps):
        item = _keys(f"{where}.steps[{i}]", step, RUN_STEP_KEYS)
        if not any(item.get(k) for k in ("thought", "action", "observation")):
            raise ScenarioError(f"{where}.steps[{i}]: a thought, an action or an observation")
        for j, tool in enumerate(item.get("tools") or []):
            _keys(f"{where}.steps[{i}].tools[{j}]", tool, TOOL_KEYS, ("tool",))


def load(path: Path) -> Scenario:
    raw = yaml.safe_load(path.read_text(encoding="utf-8"))
    where = str(path)
    item = _keys(where, raw, ("id", "category", "title", "story", "checks"), ("id", "category"))
    if item["category"] not in CATEGORIES:
        raise ScenarioError(f"{where}.category: one of {CATEGORIES}")
    if item["id"] != path.stem:
        raise ScenarioError(f"{where}.id: must equal the file name {path.stem!r}")
    story, checks = item.get("story") or [], item.get("checks") or []
    if not isinstance(story, list) or not isinstance(checks, list) or not checks:
        raise ScenarioError(f"{where}: story is a list, checks a non-empty list")
    return Scenario(
        id=item["id"],
        category=item["category"],
        title=str(item.get("title", "")),
        story=tuple(_step(f"{where}.story[{i}]", s) for i, s in enumerate(story)),
        checks=tuple(_check(f"{where}.checks[{i}]", c) for i, c in enumerate(checks)),
        path=path,
    )


def load_all(root: Path = SCENARIOS, only: Sequence[str] = ()) -> list[Scenario]:
    found = [load(p) for p in sorted(root.glob("*/*.yaml"))]
    ids = [s.id for s in found]
    if len(ids) != len(set(ids)):
        raise ScenarioError(
            f"duplicate scenario ids: {sorted({i for i in ids if ids.count(i) > 1})}"
        )
    if only:
        found = [s for s in found if s.category in only or s.id in only]
    return found


# ---------------------------------------------------------------- telling


def _parse_time(value: object) -> datetime:
    if isinstance(value, datetime):
        return value
    return datetime.fromisoformat(str(value).replace("Z", "+00:00"))


class Teller:
    """Tells one scenario's story to its namespace, then asks its checks."""

    def __init__(self, client: Client, namespace: str) -> None:
        self.client = client
        self.ns = namespace
        self.names: dict[str, str] = {}
        self.turns: dict[str, int] = defaultdict(int)

    def run(self, gql: str, **variables: Any) -> Any:
        return self.client.execute(gql, {"ns": self.ns, **variables})

    def tell(self, step: dict[str, Any]) -> None:
        ((kind, body),) = step.items()
        getattr(self, f"_{kind}")(body)

    def _ingest(self, body: dict[str, Any]) -> None:
        session = str(body.get("session", "s1"))
        start = _parse_time(body.get("at", DEFAULT_AT))
        turns: list[dict[str, Any]] = []
        for turn in body["turns"]:
            ((role, text),) = turn.items()
            index = self.turns[session]
            self.turns[session] += 1
            turns.append(
                {
                    "sessionId": session,
                    "turnIndex": index,
                    "role": role,
                    "text": text,
                    "timestamp": (start + timedelta(minutes=len(turns))).isoformat(),
                }
            )
        self.run(INGEST, turns=turns)

    def _remember(self, body: dict[str, Any]) -> None:
        memory = {REMEMBER_FIELDS[k]: v for k, v in body.items() if k in REMEMBER_FIELDS}
        if isinstance(memory.get("occurredAt"), datetime):
            memory["occurredAt"] = memory["occurredAt"].isoformat()
        got = self.run(REMEMBER, m=memory)["remember"]["memory"]["id"]
        if "name" in body:
            self.names[str(body["name"])] = got

    def _named(self, name: str) -> str:
        if name not in self.names:
            raise ScenarioError(f"no memory named {name!r} was remembered before this step")
        return self.names[name]

    def _supersede(self, body: dict[str, Any]) -> None:
        old, new = self._named(str(body["old"])), self._named(str(body["new"]))
        self.run(SUPERSEDE, old=old, new=new, reason=str(body.get("reason", "")))

    def _forget(self, body: dict[str, Any]) -> None:
        hard = bool(body.get("hard", False))
        if "name" in body:
            self.run(FORGET, id=self._named(str(body["name"])), hard=hard)
            return
        words = str(body["find"]).lower().split()
        hits = self.run(SEARCH, q=str(body["find"]), k=10, asOf=None, validAt=None)["search"]
        target = next((h for h in hits if all(w in _text(h["memory"]) for w in words)), None)
        if target is None:  # an agent finding nothing forgets nothing: the checks tell
            return
        self.run(FORGET, id=target["memory"]["id"], hard=hard)

    def _run(self, body: dict[str, Any]) -> None:
        """An agent's run, recorded as it works (start, steps, tool calls), then finished."""
        run = self.run(START_RUN, task=body["task"], session=body.get("session"),
                       agent=body.get("agent"))["startRun"]["id"]  # fmt: skip
        for step in body["steps"]:
            texts = {k: step.get(k) for k in ("thought", "action", "observation")}
            self.run(ADD_STEP, run=run, **texts)
            for tool in step.get("tools") or []:
                self.run(ADD_TOOL_CALL, run=run, tool=tool["tool"],
                         arguments=tool.get("arguments"), result=tool.get("result"),
                         status=str(tool.get("status", "success")).upper(),
                         durationMs=tool.get("durationMs"), error=tool.get("error"))  # fmt: skip
        self.run(FINISH_RUN, run=run, success=body["success"], outcome=body.get("outcome"))

    def _wait(self, seconds: float) -> None:
        time.sleep(seconds)

    # ------------------------------------------------------------ asking

    def answers(self, check: Check) -> list[str]:
        """The texts a check's call returns, best first."""
        args = check.args
        if check.call in ("recall", "search"):
            got = self.run(
                RECALL if check.call == "recall" else SEARCH,
                q=check.ask,
                k=args.get("k", 10),
                asOf=args.get("asOf"),
                validAt=args.get("validAt"),
            )
            found = got["recall"]["items"] if check.call == "recall" else got["search"]
            return [_text(item["memory"]) for item in found]
        if check.call == "context":
            got = self.run(CONTEXT, q=check.ask, budget=args.get("budget", 1000))["context"]
            return [line for line in got["text"].splitlines() if line.strip()]
        if check.call == "core":
            self.core_job()
            return [_text(m) for m in self.run(CORE)["core"]["memories"]]
        return self.memories(args.get("types"), args.get("asOf"))

    def memories(self, types: list[str] | None, as_of: str | None) -> list[str]:
        """The namespace's active memories (of ``types`` when given), every page."""
        texts: list[str] = []
        for memory_type in types or [""]:
            after = None
            flt = {"memoryType": memory_type} if memory_type else None
            while True:
                page = self.run(MEMORIES, after=after, asOf=as_of, filter=flt)["memories"]
                texts += [_text(m) for m in page["items"]]
                after = page["nextCursor"]
                if not after:
                    break
        return texts

    def core_job(self) -> None:
        started = self.client.execute(RUN_JOB, {"name": "CORE", "ns": self.ns})["runJob"]["id"]
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            runs = self.client.execute(JOB_RUNS, {"name": "CORE"})["jobRuns"]
            run = next((r for r in runs if r["id"] == started), None)
            if run is not None and run["status"] != "RUNNING":
                if run["status"] != "SUCCEEDED":
                    raise RuntimeError(f"core job {run['status']}: {run['error']}")
                return
            time.sleep(0.2)
        raise TimeoutError("the core job did not finish within 120 s")


def _text(memory: dict[str, Any]) -> str:
    """What an agent reads of a memory: its content, steps, prerequisites and warnings."""
    parts = [memory["content"], *memory.get("steps", ()), *memory.get("prerequisites", ())]
    parts += memory.get("warnings", ())
    return "\n".join(parts).lower()


def judge(check: Check, texts: Sequence[str]) -> list[str]:
    """Why ``check`` fails on ``texts`` (empty: it passes)."""
    lowered = [t.lower() for t in texts]
    failures = []
    for e in check.present:
        if e.rank(lowered) is None:
            failures.append(f"missing {list(e.words)} in top {e.top or 'all'}")
    for e in check.absent:
        rank = e.rank(lowered)
        if rank is not None:
            failures.append(f"present {list(e.words)} at rank {rank + 1}")
    for first, second in check.order:
        a, b = first.rank(lowered), second.rank(lowered)
        if a is None or (b is not None and b < a):
            failures.append(
                f"order: {list(first.words)} at {a} not above {list(second.words)} at {b}"
            )
    return failures


def run_scenario(client: Client, scenario: Scenario, run_id: str) -> list[Outcome]:
    teller = Teller(client, f"sem-{run_id}-{scenario.id}"[:128])
    for step in scenario.story:
        teller.tell(step)
    outcomes = []
    for i, check in enumerate(scenario.checks):
        texts = teller.answers(check)
        failures = judge(check, texts)
        outcomes.append(
            Outcome(
                scenario.id,
                scenario.category,
                i,
                check.call,
                check.ask,
                not failures,
                failures,
                [t[:160] for t in texts[:8]],
            )
        )
    return outcomes


def run_all(
    client: Client,
    scenarios: Sequence[Scenario],
    progress: Callable[[int, int, Scenario], None] | None = None,
) -> list[Outcome]:
    run_id = secrets.token_hex(3)
    outcomes: list[Outcome] = []
    for n, scenario in enumerate(scenarios, 1):
        outcomes += run_scenario(client, scenario, run_id)
        if progress is not None:
            progress(n, len(scenarios), scenario)
    return outcomes


def table(outcomes: Sequence[Outcome]) -> dict[str, dict[str, float]]:
    """Per category (and "overall"): checks, passed, percent, scenarios, scenarios passed."""
    rows: dict[str, dict[str, float]] = {}
    groups: dict[str, list[Outcome]] = defaultdict(list)
    for o in outcomes:
        groups[o.category].append(o)
        groups["overall"].append(o)
    for name in (*CATEGORIES, "overall"):
        got = groups.get(name, [])
        if not got:
            continue
        by_scenario: dict[str, bool] = defaultdict(lambda: True)
        for o in got:
            by_scenario[o.scenario] &= o.passed
        passed = sum(o.passed for o in got)
        rows[name] = {
            "checks": len(got),
            "passed": passed,
            "percent": round(100 * passed / len(got), 1),
            "scenarios": len(by_scenario),
            "scenarios_passed": sum(by_scenario.values()),
        }
    return rows


def print_table(rows: dict[str, dict[str, float]]) -> None:
    print(f"{'category':<14}{'checks':>8}{'passed':>8}{'%':>8}{'stories':>9}{'all pass':>10}")
    for name, row in rows.items():
        print(
            f"{name:<14}{row['checks']:>8.0f}{row['passed']:>8.0f}{row['percent']:>8.1f}"
            f"{row['scenarios']:>9.0f}{row['scenarios_passed']:>10.0f}"
        )


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    where = parser.add_mutually_exclusive_group(required=True)
    where.add_argument("--server", help="a running server's GraphQL URL")
    where.add_argument(
        "--embedded", action="store_true", help="start `hippograph serve` on a temporary store"
    )
    parser.add_argument("--key", help="API key (Bearer token) for --server")
    parser.add_argument("--scenarios", type=Path, default=SCENARIOS)
    parser.add_argument("--only", nargs="*", default=(), help="categories or scenario ids")
    parser.add_argument("--json", type=Path, help="write the table and every check's outcome")
    parser.add_argument("--show-failures", action="store_true")
    args = parser.parse_args(argv)

    scenarios = load_all(args.scenarios, args.only)
    print(f"{len(scenarios)} scenarios, {sum(len(s.checks) for s in scenarios)} checks", flush=True)

    def progress(n: int, total: int, scenario: Scenario) -> None:
        if n % 10 == 0 or n == total:
            print(f"  told {n}/{total} ({scenario.category}/{scenario.id})", flush=True)

    served = None
    if args.embedded:
        data = Path(tempfile.mkdtemp(prefix="hippograph-semantics-"))
        print(f"starting hippograph serve on {data} ...", flush=True)
        served = serve(data, log=data / "serve.log")
        url = served.url
        print(f"ready in {served.ready_s:.1f} s", flush=True)
    else:
        url = args.server
    try:
        headers = {"Authorization": f"Bearer {args.key}"} if args.key else None
        with Client(url, timeout=120, headers=headers) as client:
            started = time.monotonic()
            outcomes = run_all(client, scenarios, progress)
            elapsed = time.monotonic() - started
    finally:
        if served is not None:
            served.stop()
    rows = table(outcomes)
    print(f"\ntold and checked in {elapsed:.0f} s")
    print_table(rows)
    if args.show_failures:
        for o in outcomes:
            if not o.passed:
                print(f"\nFAIL {o.category}/{o.scenario}#{o.check} {o.call}: {o.ask!r}")
                for f in o.failures:
                    print(f"  - {f}")
                for i, text in enumerate(o.got, 1):
                    print(f"    {i}. {text!r}")
    if args.json:
        args.json.write_text(
            json.dumps({"table": rows, "outcomes": [o.__dict__ for o in outcomes]}, indent=1),
            encoding="utf-8",
        )
        print(f"wrote {args.json}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
