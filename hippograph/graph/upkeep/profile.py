"""Profile views: who the user is and what they want, materialized from memories by the
``profile`` job, and skill proposals from procedures that worked.

Entries, each pointing to the memories it comes from:

- ``preference``: every active preference;
- ``constraint``: negative rules, and facts or corrections that state a standing limit
  ("allergic to", "must", "never", "can't", "only", "no later than");
- ``identity``: facts and corrections that say who someone is, found by patterns (name, role,
  workplace, place, origin, age, relation, pet), with the attribute named. For one subject and
  attribute the newest statement is the entry and the older ones its other sources (a changed
  job reads as the new one); a superseded memory is not active, so it is never an entry.

Skill proposals: procedures with steps that proved useful (used at least once, or confirmed),
most used first, with their steps.

Reading the profile drops, at once, any entry whose memories are no longer all active: an entry
never outlives what it says, even before the job runs again.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from dataclasses import dataclass

from hippograph.graph import memories, validate
from hippograph.graph.model import now_iso
from hippograph.graph.store.store import Row, Store

MAX_CANDIDATES = 5000
_WHO = r"(?P<who>\b(?:I|[A-Z][a-z]+)(?:'s)?)"
IDENTITY = (
    ("name", re.compile(r"\b(?:[Mm]y name is|[Cc]all me|(?:I am|I'm) called) (?P<value>[A-Z]\w+)")),
    (
        "role",
        re.compile(
            _WHO + r" (?:am|is|works as|work as) an? (?P<value>(?:[a-z][\w-]* ){0,3}"
            r"(?:engineer|developer|designer|manager|teacher|nurse|doctor|student|"
            r"scientist|writer|artist|counselor|lawyer|analyst|founder|chef))\b"
        ),
    ),
    (
        "workplace",
        re.compile(
            _WHO + r" (?:now )?works? (?:at|for) (?P<value>[A-Z][\w&.-]*"
            r"(?: [A-Z][\w&.-]*)*)"
        ),
    ),
    (
        "place",
        re.compile(
            _WHO + r" (?:now )?(?:lives?|live) in (?P<value>[A-Z]\w+(?: [A-Z]\w+)*)"
            r"|" + r"(?P<who2>\b(?:I|[A-Z][a-z]+)) (?:moved|relocated) to "
            r"(?P<value2>[A-Z]\w+(?: [A-Z]\w+)*)"
        ),
    ),
    ("origin", re.compile(_WHO + r" (?:am|is|comes?|come) from (?P<value>[A-Z]\w+(?: [A-Z]\w+)*)")),
    ("age", re.compile(_WHO + r" (?:am|is|turned) (?P<value>\d{1,3}) years? old")),
    (
        "relation",
        re.compile(
            r"(?P<who>\b(?:[Mm]y|[A-Z][a-z]+'s)) (?P<value>wife|husband|partner|"
            r"girlfriend|boyfriend|son|daughter|mother|mom|father|dad|brother|"
            r"sister|grandmother|grandfather|best friend|kids?|children)\b"
        ),
    ),
    (
        "pet",
        re.compile(
            r"(?P<who>\b(?:[Mm]y|[A-Z][a-z]+'s)) (?P<value>dog|cat|puppy|kitten|"
            r"horse|parrot|rabbit)\b"
        ),
    ),
)
CONSTRAINT = re.compile(
    r"\b(?:allergic|allergy|intoleran\w+|must(?:n't)?|never|can(?:no|')t|cannot|only|"
    r"no later than|not allowed|forbidden|required|deadline)\b",
    re.IGNORECASE,
)


@dataclass(frozen=True, kw_only=True)
class ProfileEntry:
    kind: str  # preference | constraint | identity
    attribute: str | None  # for identity: name, role, workplace, place, origin, age, ...
    subject: str | None  # who it is about, as written ("I", "Ada")
    statement: str
    sources: tuple[str, ...]  # memory ids, the entry's own first


@dataclass(frozen=True, kw_only=True)
class SkillProposal:
    name: str
    steps: tuple[str, ...]
    source: str
    uses: int
    confidence: float


@dataclass(frozen=True, kw_only=True)
class Profile:
    namespace: str
    version: int
    updated_at: str | None
    entries: tuple[ProfileEntry, ...]
    skills: tuple[SkillProposal, ...]


def identity_of(content: str) -> tuple[str, str, str] | None:
    """(attribute, subject, value) of the first identity pattern ``content`` matches."""
    for attribute, pattern in IDENTITY:
        found = pattern.search(content)
        if found is not None:
            groups = found.groupdict()
            who = groups.get("who") or groups.get("who2") or ""
            value = (groups.get("value") or groups.get("value2") or "").rstrip(".,;:!?")
            subject = who.removesuffix("'s").lower()
            return attribute, "i" if subject in ("my", "") else subject, value
    return None


def compute(rows: Sequence[Row]) -> tuple[list[ProfileEntry], list[SkillProposal]]:
    """The profile of a namespace from its candidate memories, newest first (``rows`` as
    ``profile/candidates`` returns them)."""
    entries: list[ProfileEntry] = []
    identities: dict[tuple[str, str], list[Row]] = {}
    skills: list[SkillProposal] = []
    for r in rows:
        kind, content = str(r["memory_type"]), str(r["content"])
        if kind == "preference":
            entries.append(_entry("preference", None, None, r, ()))
        elif kind == "negative":
            entries.append(_entry("constraint", None, None, r, ()))
        elif kind == "procedure":
            if r["steps"] and (int(r["uses"]) >= 1 or r["confirmed"]):
                skills.append(_skill(r))
        elif (found := identity_of(content)) is not None:
            identities.setdefault((found[1], found[0]), []).append(r)
        elif CONSTRAINT.search(content):
            entries.append(_entry("constraint", None, None, r, ()))
    for (subject, attribute), group in identities.items():
        newest, *older = group  # rows come newest first
        entries.append(_entry("identity", attribute, subject, newest, older))
    order = {"identity": 0, "constraint": 1, "preference": 2}
    entries.sort(key=lambda e: (order[e.kind], e.subject or "", e.attribute or "", e.statement))
    skills.sort(key=lambda s: (-s.uses, -s.confidence, s.name))
    return entries, skills


def _entry(
    kind: str, attribute: str | None, subject: str | None, row: Row, older: Sequence[Row]
) -> ProfileEntry:
    return ProfileEntry(
        kind=kind,
        attribute=attribute,
        subject=subject,
        statement=str(row["content"]),
        sources=(str(row["id"]), *(str(o["id"]) for o in older)),
    )


def _skill(row: Row) -> SkillProposal:
    words = str(row["content"]).split()
    return SkillProposal(
        name=" ".join(words[:8]) + ("…" if len(words) > 8 else ""),
        steps=tuple(str(s) for s in row["steps"]),
        source=str(row["id"]),
        uses=int(row["uses"]),
        confidence=float(row["confidence"]),
    )


def refresh(store: Store, namespace: str) -> Profile:
    """Compute the namespace's profile from its memories now and store it."""
    validate.namespace(namespace)
    rows = store.read("profile/candidates", namespace=namespace, limit=MAX_CANDIDATES)
    entries, skills = compute(rows)
    store.write(
        "profile/save",
        namespace=namespace,
        entries=[json.dumps(e.__dict__) for e in entries],
        skills=[json.dumps(s.__dict__) for s in skills],
        now=now_iso(),
    )
    return get(store, namespace)


def get(store: Store, namespace: str) -> Profile:
    """The stored profile, without the entries and skills whose memories are no longer all
    active (superseded, archived, forgotten since the job ran)."""
    validate.namespace(namespace)
    found = store.read("profile/get", namespace=namespace)
    if not found:
        return Profile(namespace=namespace, version=0, updated_at=None, entries=(), skills=())
    raw_entries = [json.loads(e) for e in found[0]["entries"] or []]
    raw_skills = [json.loads(s) for s in found[0]["skills"] or []]
    ids = {i for e in raw_entries for i in e["sources"]} | {s["source"] for s in raw_skills}
    active = {
        m.id for m in memories.get_many(store, namespace, sorted(ids)) if m.status == "active"
    }
    entries = tuple(
        ProfileEntry(**{**e, "sources": tuple(e["sources"])})
        for e in raw_entries
        if e["sources"][0] in active
    )
    skills = tuple(
        SkillProposal(**{**s, "steps": tuple(s["steps"])})
        for s in raw_skills
        if s["source"] in active
    )
    return Profile(
        namespace=namespace,
        version=int(found[0]["version"]),
        updated_at=found[0]["updated_at"],
        entries=entries,
        skills=skills,
    )
