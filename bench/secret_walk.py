"""Does a secret planted in any string argument stay out of everything the server keeps? One
command: python bench/secret_walk.py

Starts ``hippograph serve`` (keys required, one admin key over ``*``) on a fresh data
directory, reads the GraphQL schema by introspection and the MCP tools' input schemas by
``tools/list``, and, for every string the caller can send (each String, ID and JSON argument,
each field of a nested input object, each list element) and every secret form of ``FORMS``,
calls the operation with that one argument carrying the secret and every other argument valid
(ids that must exist are created first, fresh for every mutation). Afterwards the server is
stopped with SIGTERM, which closes the engine (its pages and WAL written to disk), and every
response body, every file under the data directory (the audit trail among them) and the server
log are searched for each planted secret's raw value. A typed error is an acceptable answer for
a field; a raw secret found anywhere is a leak. Prints the counts per surface and each leak.

Every raw secret is unique to its (surface, operation, argument, form) and starts with its
form's fixed stem, so one pass over a file (``bytes.find`` of the stems) attributes every hit.
A canary (an ordinary unique word remembered as content) must be found in the data directory:
it shows the search reads the engine's files as stored.
"""

from __future__ import annotations

import argparse
import json
import random
import string
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import graphql as g
import httpx
from graphql import Undefined, build_client_schema, get_introspection_query, get_named_type

from bench import server

ALNUM = string.ascii_letters + string.digits
STRINGY = frozenset({"String", "ID", "JSON"})
NS = "walk"
WHEN = "2026-01-02T03:04:05Z"


@dataclass(frozen=True)
class Form:
    """A secret's shape: its stem (the raw value's fixed start), the random tail's length, and
    how it is written in the planted text ({} is the raw value)."""

    stem: str
    tail: int
    template: str


# The forms of the scanner tests' corpus (tests/graph/text/test_privacy_corpora.py): an AWS
# secret key after its key word and bare, a GitHub token, a private key block, password=.
FORMS: dict[str, Form] = {
    "aws-secret-key": Form("wJa1rXk", 33, "aws_secret_access_key={}"),
    "aws-bare-40": Form("Zq8vKtP", 33, "{}"),
    "github-token": Form("ghp_Wk3Nx", 31, "{}"),
    "private-key": Form(
        "MIIEpQIBAAKCAQEA",
        48,
        "-----BEGIN RSA PRIVATE KEY-----\n{}\n-----END RSA PRIVATE KEY-----",
    ),
    "password": Form("Pw9xVb", 10, "password={}"),
    # A token glued to a prefix, as in an identifier ("deploy-ghp_..."), no space before it.
    "glued-token": Form("ghp_Gl7ue", 31, "deploy-{}"),
}


@dataclass(frozen=True)
class Plant:
    surface: str  # graphql or mcp
    operation: str
    path: str  # the argument, e.g. memory.source.filePaths[]
    form: str
    writes: bool  # a mutation (a tool that is not read-only): what it accepts is kept


@dataclass
class Walk:
    """What was planted and what came back."""

    rng: random.Random = field(default_factory=lambda: random.Random(4343))
    planted: dict[str, Plant] = field(default_factory=dict)  # raw secret -> where
    outcome: dict[Plant, str] = field(default_factory=dict)  # ok, or the error code
    responses: list[str] = field(default_factory=list)
    baseline_errors: list[str] = field(default_factory=list)

    def plant(self, where: Plant) -> str:
        """The planted text for ``where``, its raw secret registered."""
        form = FORMS[where.form]
        raw = form.stem + "".join(self.rng.choice(ALNUM) for _ in range(form.tail))
        self.planted[raw] = where
        return form.template.format(raw)


# --- valid values -------------------------------------------------------------------------

# Strings a field accepts, by argument or input field name.
TEXTS: dict[str, str] = {
    "namespace": NS, "sessionId": "s-walk", "project": "proj", "role": "user",
    "status": "ok", "type": "KNOWS", "kind": "person", "name": "Ada Walker", "tool": "grep",
    "outcome": "done", "speaker": "Ada", "agent": "bot", "callId": "c1", "messageId": "m1",
    "asOf": WHEN, "validAt": WHEN, "occurredAt": WHEN, "since": WHEN, "timestamp": WHEN,
    "from": "Ada Walker", "to": "Bob Walker", "into": "Bob Walker", "namespaces": NS,
}  # fmt: skip
# Arguments an operation needs one of (none is required alone), when none is planted.
# "@kind": a thing of that kind (``Api.make``).
EXTRA: dict[str, dict[str, str]] = {
    "entity": {"name": "@entity-name"}, "erase": {"text": "no turn says this"},
    "addStep": {"thought": "walk thought"}, "add_step": {"thought": "walk thought"},
}  # fmt: skip
NUMBERS: dict[str, float] = {"k": 3, "first": 5, "budget": 200, "weight": 0.5, "last": 5}
# Which kind of thing an ID names, by (operation, argument), then by argument.
ID_KINDS: dict[tuple[str, str], str] = {
    ("run", "id"): "run", ("get_run", "id"): "run", ("updateToolCall", "id"): "toolcall",
    ("update_tool_call", "id"): "toolcall", ("rotateKey", "id"): "key",
    ("revokeKey", "id"): "key", ("eraseTurn", "id"): "turn", ("erase_turn", "id"): "turn",
    ("entity", "id"): "entity", ("splitEntity", "id"): "merged", ("split_entity", "id"): "merged",
    ("erase", "turnIds"): "turn", ("entity", "name"): "entity-name",
    ("mergeEntities", "from"): "from-name", ("merge_entities", "from"): "from-name",
    ("mergeEntities", "into"): "into-name", ("merge_entities", "into"): "into-name",
}  # fmt: skip
ID_ARGS: dict[str, str] = {
    "id": "memory", "memoryId": "memory", "fromId": "memory", "toId": "memory",
    "oldId": "memory", "newId": "memory", "memoryIds": "memory", "runId": "run",
}  # fmt: skip
# Arguments left out unless planted: an optional one a minimal call does not need.
OMITTED = frozenset({"after", "asOf", "validAt"})
# Operations over every namespace without one: given the walk's, so they stay small.
SCOPED = frozenset({"audit", "consolidate", "runJob"})


class Api:
    """The server's GraphQL endpoint with the admin key, and the things ids must name."""

    def __init__(self, url: str, token: str, walk: Walk) -> None:
        self.url = url
        self.http = httpx.Client(headers={"Authorization": f"Bearer {token}"}, timeout=300)
        self.walk = walk
        self.turns = 0
        self.shared: dict[str, str] = {}
        self.into = ""  # the other entity of the last "from-name" made

    def post(self, query: str, variables: dict[str, Any]) -> dict[str, Any]:
        r = self.http.post(self.url, json={"query": query, "variables": variables})
        self.walk.responses.append(r.text)
        body: dict[str, Any] = r.json()
        return body

    def data(self, query: str, **variables: Any) -> dict[str, Any]:
        body = self.post(query, variables)
        if body.get("errors"):
            raise RuntimeError(f"set-up call failed: {body['errors']}")
        return dict(body["data"])

    def next_turn(self) -> int:
        self.turns += 1
        return self.turns

    def make(self, kind: str) -> str:
        """A new thing of ``kind`` (memory, run, toolcall, key, turn, entity, merged)."""
        n = self.next_turn()
        if kind == "memory":
            m = 'mutation($c: String!) { remember(namespace: "walk", memory: {content: $c}) '
            done = self.data(m + "{ memory { id } } }", c=f"Walk note {n}: the deploy box {n}")
            return str(done["remember"]["memory"]["id"])
        if kind == "run":
            q = 'mutation($t: String!) { startRun(namespace: "walk", task: $t) { id } }'
            return str(self.data(q, t=f"walk task {n}")["startRun"]["id"])
        if kind == "toolcall":
            q = 'mutation($r: ID!) { addToolCall(namespace: "walk", runId: $r, tool: "grep") { id } }'
            return str(self.data(q, r=self.make("run"))["addToolCall"]["id"])
        if kind == "key":
            q = 'mutation { createKey(name: "walk", role: READ, namespaces: ["walk"]) { key { id } } }'
            return str(self.data(q)["createKey"]["key"]["id"])
        if kind == "turn":
            q = """mutation($t: [TurnInput!]!) { ingest(namespace: "walk", turns: $t) {
                 turns { id } } }"""
            turn = {"sessionId": "s-walk", "turnIndex": n, "text": f"walk turn {n}", "role": "user"}
            return str(self.data(q, t=[turn])["ingest"]["turns"][0]["id"])
        if kind == "into-name" and self.into:
            into, self.into = self.into, ""
            return into
        if kind in ("entity", "merged", "entity-name", "from-name", "into-name"):
            a, b = f"Ada Walker{n}", f"Bob Walker{n}"
            q = """mutation($a: String!, $b: String!) { relate(namespace: "walk", from: $b,
                 type: "KNOWS", to: $a, kind: "person") { otherUid } }"""
            uid = str(self.data(q, a=a, b=b)["relate"][0]["otherUid"])  # a's
            if kind != "merged" and kind.endswith("-name"):
                self.into = b if kind == "from-name" else ""
                return b if kind == "into-name" else a
            if kind == "merged":
                q = """mutation($a: String!, $b: String!) {
                     mergeEntities(namespace: "walk", from: $a, into: $b) { uid } }"""
                self.data(q, a=a, b=b)
            return uid
        raise ValueError(kind)

    def extra(self, value: str, fresh: bool) -> str:
        return self.ident(value[1:], fresh) if value.startswith("@") else value

    def ident(self, kind: str, fresh: bool) -> str:
        if fresh:
            return self.make(kind)
        if kind not in self.shared:
            self.shared[kind] = self.make(kind)
        return self.shared[kind]


def complete_turn(turn: dict[str, Any], api: Api) -> None:
    """A turn needs a speaker or a role, and an index of its own (the same index with another
    text is a TURN_CONFLICT)."""
    turn.setdefault("turnIndex", api.next_turn())
    if "speaker" not in turn:
        turn.setdefault("role", "user")


def id_kind(operation: str, name: str) -> str | None:
    return ID_KINDS.get((operation, name)) or ID_ARGS.get(name)


# --- GraphQL ------------------------------------------------------------------------------


def string_paths(type_: g.GraphQLInputType, path: str, seen: frozenset[str]) -> Iterator[str]:
    """Every string a value of ``type_`` may hold, as a path (``[]`` for a list element)."""
    inner = type_.of_type if isinstance(type_, g.GraphQLNonNull) else type_
    if isinstance(inner, g.GraphQLList):
        yield from string_paths(inner.of_type, path + "[]", seen)
    elif isinstance(inner, g.GraphQLInputObjectType) and inner.name not in seen:
        for name, f in inner.fields.items():
            yield from string_paths(f.type, f"{path}.{name}", seen | {inner.name})
    elif isinstance(inner, g.GraphQLScalarType) and inner.name in STRINGY:
        yield path


class GraphQLWalk:
    def __init__(self, api: Api, schema: g.GraphQLSchema) -> None:
        self.api = api
        self.schema = schema

    def value(
        self, type_: g.GraphQLInputType, name: str, op: str, fresh: bool, plant: tuple[str, str]
    ) -> Any:
        """A valid value of ``type_`` for argument ``name``; ``plant``: (path below this
        value, planted text), the path empty when this value is the one planted."""
        rest, text = plant
        inner = type_.of_type if isinstance(type_, g.GraphQLNonNull) else type_
        if isinstance(inner, g.GraphQLList):
            below = (rest[2:], text) if rest.startswith("[]") else ("-", "")
            return [self.value(inner.of_type, name, op, fresh, below)]
        if isinstance(inner, g.GraphQLInputObjectType):
            out: dict[str, Any] = {}
            for fname, f in inner.fields.items():
                here = rest.startswith(f".{fname}") and rest[len(fname) + 1 :][:1] in ("", ".", "[")
                if here:
                    out[fname] = self.value(
                        f.type, fname, op, fresh, (rest[len(fname) + 1 :], text)
                    )
                elif isinstance(f.type, g.GraphQLNonNull) and f.default_value is Undefined:
                    out[fname] = self.value(f.type, fname, op, fresh, ("-", ""))
            if inner.name == "TurnInput":
                complete_turn(out, self.api)
            return out
        if rest == "":
            return {"note": text} if inner.name == "JSON" else text
        if isinstance(inner, g.GraphQLEnumType):
            return next(iter(inner.values))
        if inner.name in ("Int", "Float"):
            if name == "turnIndex":
                return self.api.next_turn()
            return NUMBERS.get(name, 1)
        if inner.name == "Boolean":
            return False
        if inner.name == "JSON":
            return {"q": "walk"}
        kind = id_kind(op, name)
        if kind is not None:
            return self.api.ident(kind, fresh)
        return TEXTS.get(name, f"walk {name} text")

    def call(self, root: g.GraphQLObjectType, op: str, plant: tuple[str, str]) -> dict[str, Any]:
        """``op`` with valid arguments, ``plant`` = (argument path, text) planted."""
        gql_field = root.fields[op]
        fresh = root is self.schema.mutation_type
        path, text = plant
        names, values, defs, uses = [], {}, [], []
        for i, (name, arg) in enumerate(gql_field.args.items()):
            planted_here = path == name or path.startswith((name + ".", name + "["))
            required = isinstance(arg.type, g.GraphQLNonNull) and arg.default_value is Undefined
            scoped = name == "namespace" and op in SCOPED
            if not planted_here and (not required or name in OMITTED) and not scoped:
                continue
            below = (path[len(name) :], text) if planted_here else ("-", "")
            values[f"a{i}"] = self.value(arg.type, name, op, fresh, below)
            defs.append(f"$a{i}: {arg.type}")
            uses.append(f"{name}: $a{i}")
            names.append(name)
        for name, value in EXTRA.get(op, {}).items():
            if name not in names:
                values[name] = self.api.extra(value, fresh)
                defs.append(f"${name}: {gql_field.args[name].type}")
                uses.append(f"{name}: ${name}")
        head = "mutation" if fresh else "query"
        args = f"({', '.join(uses)})" if uses else ""
        variables = f"({', '.join(defs)})" if defs else ""
        doc = f"{head}{variables} {{ {op}{args} {selection(gql_field.type, 3)} }}"
        return self.api.post(doc, values)


def selection(type_: g.GraphQLOutputType, depth: int) -> str:
    """Every scalar field of ``type_`` and its objects' to ``depth`` levels (those without
    required arguments); ``__typename`` where nothing else fits."""
    named = get_named_type(type_)
    if not isinstance(named, g.GraphQLObjectType):
        return (
            "" if isinstance(named, (g.GraphQLScalarType, g.GraphQLEnumType)) else "{ __typename }"
        )
    picked = []
    for name, f in named.fields.items():
        if any(isinstance(a.type, g.GraphQLNonNull) for a in f.args.values()):
            continue
        inner = get_named_type(f.type)
        if isinstance(inner, g.GraphQLObjectType):
            if depth > 1:
                picked.append(f"{name} {selection(f.type, depth - 1)}")
        elif isinstance(inner, (g.GraphQLScalarType, g.GraphQLEnumType)):
            picked.append(name)
    return "{ " + " ".join(picked or ["__typename"]) + " }"


def fields_of(schema: g.GraphQLSchema) -> Iterator[tuple[g.GraphQLObjectType, str, g.GraphQLField]]:
    for root in (schema.query_type, schema.mutation_type):
        assert root is not None
        yield from ((root, name, f) for name, f in root.fields.items())


def walk_graphql(api: Api, schema: g.GraphQLSchema) -> None:
    gw = GraphQLWalk(api, schema)
    for root, op, gql_field in fields_of(schema):
        base = gw.call(root, op, ("", ""))
        if base.get("errors"):
            api.walk.baseline_errors.append(f"graphql {op}: {base['errors'][0]['message']}")
        paths = [
            p for name, a in gql_field.args.items() for p in string_paths(a.type, name, frozenset())
        ]
        for path in paths:
            for form in FORMS:
                where = Plant("graphql", op, path, form, root is schema.mutation_type)
                body = gw.call(root, op, (path, api.walk.plant(where)))
                errors = body.get("errors") or []
                code = errors[0].get("extensions", {}).get("code", "ERROR") if errors else "ok"
                api.walk.outcome[where] = str(code)


# --- MCP ----------------------------------------------------------------------------------


def json_paths(schema: dict[str, Any], path: str) -> Iterator[str]:
    """Every string an MCP tool's argument may hold (its JSON schema), as a path."""
    options = schema.get("anyOf", [schema])
    for option in options:
        kind = option.get("type")
        if kind == "string" and "enum" not in option or option == {}:
            yield path
        elif kind == "array":
            yield from json_paths(option["items"], path + "[]")
        elif kind == "object":
            for name, sub in option.get("properties", {}).items():
                yield from json_paths(sub, f"{path}.{name}" if path else name)


class McpWalk:
    def __init__(self, api: Api, op: str, fresh: bool) -> None:
        self.api, self.op, self.fresh = api, op, fresh

    def value(self, schema: dict[str, Any], name: str, plant: tuple[str, str]) -> Any:
        rest, text = plant
        options = [o for o in schema.get("anyOf", [schema]) if o.get("type") != "null"]
        option = options[0] if options else {}
        kind = option.get("type")
        if kind == "array":
            below = (rest[2:], text) if rest.startswith("[]") else ("-", "")
            return [self.value(option["items"], name, below)]
        if kind == "object":
            out: dict[str, Any] = {}
            for fname, sub in option.get("properties", {}).items():
                here = rest.startswith(f".{fname}") and rest[len(fname) + 1 :][:1] in ("", ".", "[")
                if here:
                    out[fname] = self.value(sub, fname, (rest[len(fname) + 1 :], text))
                elif fname in option.get("required", []):
                    out[fname] = self.value(sub, fname, ("-", ""))
            if name == "turns":
                complete_turn(out, self.api)
            return out
        if rest == "":
            return {"note": text} if option == {} else text
        if "enum" in option:
            return option["enum"][0]
        if kind in ("integer", "number"):
            return self.api.next_turn() if name == "turnIndex" else NUMBERS.get(name, 1)
        if kind == "boolean":
            return False
        if option == {}:
            return {"q": "walk"}
        ident = id_kind(self.op, name)
        if ident is not None:
            return self.api.ident(ident, self.fresh)
        return TEXTS.get(name, f"walk {name} text")

    def arguments(self, schema: dict[str, Any], plant: tuple[str, str]) -> dict[str, Any]:
        path, text = plant
        out: dict[str, Any] = {}
        for name, sub in schema.get("properties", {}).items():
            here = path == name or path.startswith((name + ".", name + "["))
            if here:
                out[name] = self.value(sub, name, (path[len(name) :], text))
            elif name in schema.get("required", []):
                out[name] = self.value(sub, name, ("-", ""))
        for name, value in EXTRA.get(self.op, {}).items():
            if name not in out:
                out[name] = self.api.extra(value, self.fresh)
        return out


async def walk_mcp(api: Api, url: str, token: str) -> None:
    import httpx2
    from mcp import Client
    from mcp.client.streamable_http import streamable_http_client

    headers = {"Authorization": f"Bearer {token}", "X-Hippograph-Namespace": NS}
    async with (
        httpx2.AsyncClient(headers=headers, timeout=300) as http,
        Client(streamable_http_client(url, http_client=http)) as client,
    ):
        tools = (await client.list_tools()).tools
        api.shared.clear()  # the GraphQL walk's jobs may have merged or archived them
        for tool in tools:
            schema = tool.input_schema
            walker = McpWalk(
                api, tool.name, fresh=not (tool.annotations and tool.annotations.read_only_hint)
            )
            base = await client.call_tool(tool.name, walker.arguments(schema, ("", "")))
            api.walk.responses.append(base.model_dump_json())
            if base.is_error:
                api.walk.baseline_errors.append(f"mcp {tool.name}: {base.content}")
            for path in json_paths(schema, ""):
                for form in FORMS:
                    where = Plant("mcp", tool.name, path, form, walker.fresh)
                    arguments = walker.arguments(schema, (path, api.walk.plant(where)))
                    result = await client.call_tool(tool.name, arguments)
                    answer = result.model_dump_json()
                    api.walk.responses.append(answer)
                    code = "ok"
                    if result.is_error:
                        try:
                            code = json.loads(result.content[0].text).get("code", "ERROR")  # type: ignore[union-attr]
                        except (ValueError, AttributeError):
                            code = "ERROR"
                    api.walk.outcome[where] = str(code)


# --- searching ----------------------------------------------------------------------------


def hits(blob: bytes, planted: dict[str, str]) -> tuple[set[str], int]:
    """The planted raw secrets in ``blob``, in any letter case (a secret upper- or lower-cased
    on its way in is still a secret), and how many stems stood without a whole secret after
    them (a truncated or partly redacted one). ``planted``: lower-cased raw secret -> raw."""
    found: set[str] = set()
    partial = 0
    lowered = blob.lower()
    for form in FORMS.values():
        stem, size = form.stem.lower().encode(), len(form.stem) + form.tail
        at = lowered.find(stem)
        while at >= 0:
            raw = planted.get(lowered[at : at + size].decode("ascii", "replace"))
            if raw is not None:
                found.add(raw)
            else:
                partial += 1
            at = lowered.find(stem, at + 1)
    return found, partial


@dataclass
class Report:
    walk: Walk
    found: dict[str, set[str]]  # where (responses, data files, log, audit) -> raw secrets
    partial: Counter[str]
    files: int
    redactions: int  # "[REDACTED:" marks in the data directory's files
    canary_found: bool
    seconds: float

    def leaks(self) -> list[tuple[str, Plant]]:
        return sorted(
            ((where, self.walk.planted[raw]) for where, raws in self.found.items() for raw in raws),
            key=lambda x: (x[0], x[1].surface, x[1].operation, x[1].path, x[1].form),
        )

    def table(self) -> str:
        lines = ["| surface | operations | string arguments | forms | tried | rejected | "
                 "accepted by a write (kept redacted, or dropped) | accepted by a read | "
                 "found afterwards |", "|---|---|---|---|---|---|---|---|---|"]  # fmt: skip
        for surface in ("graphql", "mcp"):
            mine = {p: c for p, c in self.walk.outcome.items() if p.surface == surface}
            ops = {p.operation for p in mine}
            paths = {(p.operation, p.path) for p in mine}
            rejected = sum(c != "ok" for c in mine.values())
            written = sum(c == "ok" and p.writes for p, c in mine.items())
            leaked = {raw for raws in self.found.values() for raw in raws
                      if self.walk.planted[raw].surface == surface}  # fmt: skip
            lines.append(
                f"| {surface} | {len(ops)} | {len(paths)} | {len(FORMS)} | {len(mine)} | "
                f"{rejected} | {written} | {len(mine) - rejected - written} | {len(leaked)} |"
            )
        codes = Counter(self.walk.outcome.values())
        lines.append("")
        lines.append("outcomes: " + ", ".join(f"{c} {n}" for c, n in codes.most_common()))
        lines.append(
            f"searched: {len(self.walk.responses)} responses, {self.files} files of the data "
            f"directory (audit trail included, {self.redactions} redaction marks in them), the "
            f"server log; canary found in the data "
            f"directory: {self.canary_found}; stems without a whole secret: "
            + ", ".join(f"{w} {n}" for w, n in self.partial.items())
        )
        lines += [
            f"LEAK in {w}: {p.surface} {p.operation} {p.path} ({p.form})" for w, p in self.leaks()
        ]
        lines += [f"baseline error: {e}" for e in self.walk.baseline_errors]
        lines.append(f"{self.seconds:.0f} s")
        return "\n".join(lines)


def search(
    walk: Walk, data_dir: Path, log: Path, canary: str
) -> tuple[dict[str, set[str]], Counter[str], int, int, bool]:
    found: dict[str, set[str]] = {}
    partial: Counter[str] = Counter()

    folded = {raw.lower(): raw for raw in walk.planted}

    def note(where: str, blob: bytes) -> None:
        raws, stems = hits(blob, folded)
        if raws:
            found.setdefault(where, set()).update(raws)
        partial[where.split(":")[0]] += stems

    note("responses", "\n".join(walk.responses).encode())
    note("log", log.read_bytes() if log.exists() else b"")
    files = [p for p in data_dir.rglob("*") if p.is_file()]
    canary_found = False
    redactions = 0
    for path in files:
        blob = path.read_bytes()
        redactions += blob.count(b"[REDACTED:")
        canary_found = canary_found or canary.encode() in blob
        where = "audit" if path.name.startswith("audit") else f"data:{path.relative_to(data_dir)}"
        note(where, blob)
    return found, partial, len(files), redactions, canary_found


def run(work_dir: Path, *, mcp: bool = True) -> Report:
    """The whole walk on a fresh data directory under ``work_dir``."""
    import anyio

    from hippograph.api.keys import KeyStore

    started = time.perf_counter()
    data_dir, log = work_dir / "data", work_dir / "serve.log"
    data_dir.mkdir(mode=0o700)
    token = KeyStore(data_dir).create("walk admin", "admin", ["*"]).token
    served = server.serve(data_dir, log=log, log_level="INFO")
    walk = Walk()
    canary = "walkcanary" + "".join(walk.rng.choice(string.ascii_lowercase) for _ in range(12))
    api = Api(served.url, token, walk)
    try:
        api.data('mutation($c: String!) { remember(namespace: "walk", memory: {content: $c}) '
                 "{ memory { id } } }", c=f"The {canary} note")  # fmt: skip
        raw = api.data(get_introspection_query(descriptions=False))
        schema = build_client_schema(raw)  # type: ignore[arg-type]
        walk_graphql(api, schema)
        if mcp:
            anyio.run(walk_mcp, api, served.url.removesuffix("/graphql") + "/mcp", token)
    finally:
        api.http.close()
        served.stop()  # SIGTERM: the engine closes, its pages and WAL written to the files
    found, partial, files, redactions, canary_found = search(walk, data_dir, log, canary)
    spent = time.perf_counter() - started
    return Report(walk, found, partial, files, redactions, canary_found, spent)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--no-mcp", action="store_true", help="walk GraphQL only")
    parser.add_argument("--outcomes", type=Path, help="write each plant's outcome here (JSON)")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="secret-walk-") as tmp:
        report = run(Path(tmp), mcp=not args.no_mcp)
    print(report.table())
    if args.outcomes is not None:
        rows = [[p.surface, p.operation, p.path, p.form, c] for p, c in report.walk.outcome.items()]
        args.outcomes.write_text(json.dumps(rows, indent=0))
    return 1 if report.leaks() or not report.canary_found else 0


if __name__ == "__main__":
    sys.exit(main())
