"""One record per answer: the domain records, the GraphQL types that wrap them and the client's
records name the same fields, and the client's documents select every field of what they ask
for. The three are written by hand; these tests catch them drifting (``explain: true`` once
answered four score components fewer than the domain computes)."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field

import graphql
import pytest

from hippograph.api import (
    bundle_schema,
    core_schema,
    entity_schema,
    ingest_schema,
    jobs_schema,
    profile_schema,
    types,
    usage_schema,
)
from hippograph.api.schema import schema
from hippograph.client import documents, entity_views, records
from hippograph.graph import about, entities, history, model
from hippograph.graph.recall import bundle, feedback, nextturn, results
from hippograph.graph.upkeep import core, profile
from hippograph.graph.write import append, episodes


@dataclass(frozen=True)
class Trio:
    """One answer record as the domain, the API and the client write it (None: no such side)."""

    domain: type | None
    api: type
    client: type | None = None
    # Deliberate differences, each with its reason at the entry: fields only the domain keeps,
    # fields only the API (and so the client) answers, and names the API spells otherwise.
    domain_only: frozenset[str] = frozenset()
    api_only: frozenset[str] = frozenset()
    renamed: dict[str, str] = field(default_factory=dict)  # domain name -> API name


RECORDS = (
    Trio(domain=results.RecallResult, api=types.RecallResult, client=records.RecallResult,
         # What the verifier found, as ids: the API answers it through items' rejected flags.
         domain_only=frozenset({"verdict"})),
    Trio(domain=results.Recalled, api=types.RecallItem, client=records.RecallItem),
    Trio(domain=results.Explanation, api=types.Explanation, client=records.Explanation),
    Trio(domain=results.Step, api=types.PathStep, client=records.PathStep),
    Trio(domain=results.HistoryEntry, api=types.HistoryEntry, client=records.HistoryEntry),
    # The client returns the domain's own Memory.
    Trio(domain=model.Memory, api=types.Memory, client=model.Memory,
         # Service-clock instants the API answers through asOf instead.
         domain_only=frozenset({"superseded_at", "archived_at"}),
         # The bitemporal name of created_at (event time), kept beside it.
         api_only=frozenset({"valid_from"})),
    Trio(domain=model.Source, api=types.Source),
    Trio(domain=model.Reinforcement, api=types.Reinforcement),
    Trio(domain=model.ChunkPosition, api=types.Chunk),
    Trio(domain=model.RememberResult, api=types.RememberPayload, client=model.RememberResult,
         renamed={"target": "target_id"}),
    Trio(domain=model.ScoredMemory, api=types.ScoredMemory, client=model.ScoredMemory),
    Trio(domain=model.Page, api=types.MemoryPage, client=model.Page),
    # A tag is listed within the namespace asked for.
    Trio(domain=model.Tag, api=types.Tag, domain_only=frozenset({"namespace"})),
    Trio(domain=None, api=types.LinkPayload, client=records.Link),
    Trio(domain=None, api=types.Health, client=records.Health),
    Trio(domain=history.MemoryHistory, api=ingest_schema.MemoryHistory,
         client=records.MemoryHistory),
    # The episodes a decision read: the API answers them as the memory's derivation.
    Trio(domain=history.DecisionRecord, api=ingest_schema.Decision, client=records.Decision,
         domain_only=frozenset({"episode_uids"})),
    Trio(domain=history.Version, api=ingest_schema.MemoryVersion, client=records.MemoryVersion),
    Trio(domain=history.Related, api=ingest_schema.RelatedMemory, client=records.RelatedMemory),
    # One entry of IngestResult.actions, a dict in the domain and the client.
    Trio(domain=None, api=ingest_schema.ActionCount),
    Trio(domain=episodes.IngestResult, api=ingest_schema.IngestPayload,
         client=records.IngestResult),
    Trio(domain=append.TurnRef, api=ingest_schema.TurnRef, client=records.TurnRef),
    # The confidence before feedback moved it is the domain's bookkeeping.
    Trio(domain=feedback.Rating, api=jobs_schema.FeedbackPayload, client=records.Rating,
         domain_only=frozenset({"initial_confidence"})),
    Trio(domain=feedback.RecallEffects, api=usage_schema.UsedPayload),
    # The recall behind a bundle feeds post-recall upkeep; the API answers the bundle.
    Trio(domain=bundle.ContextBundle, api=bundle_schema.ContextBundle,
         domain_only=frozenset({"result"})),
    Trio(domain=bundle.BundleItem, api=bundle_schema.ContextItem),
    Trio(domain=nextturn.Observation, api=bundle_schema.Observation),
    # A monotonic clock reading means nothing to a caller: the API answers the age it gives.
    Trio(domain=nextturn.Pending, api=bundle_schema.PendingContext,
         domain_only=frozenset({"finished_monotonic"}), api_only=frozenset({"age_ms"})),
    # The core block and the profile are read for the namespace asked for.
    Trio(domain=core.CoreBlock, api=core_schema.CoreBlock, domain_only=frozenset({"namespace"})),
    Trio(domain=core.CoreChange, api=core_schema.CoreChange),
    Trio(domain=profile.Profile, api=profile_schema.Profile,
         domain_only=frozenset({"namespace"})),
    Trio(domain=profile.ProfileEntry, api=profile_schema.ProfileEntry),
    Trio(domain=profile.SkillProposal, api=profile_schema.SkillProposal),
    # An entity is read within the namespace asked for.
    Trio(domain=entities.Entity, api=entity_schema.Entity, client=entity_views.Entity,
         domain_only=frozenset({"namespace"})),
    Trio(domain=entities.Relationship, api=entity_schema.EntityRelationship,
         client=entity_views.Relationship),
    Trio(domain=entities.MergedEntity, api=entity_schema.MergedEntity,
         client=entity_views.MergedEntity),
    Trio(domain=about.TimelineEntry, api=entity_schema.TimelineEntry,
         client=entity_views.TimelineEntry),
    Trio(domain=about.About, api=entity_schema.EntityView, client=entity_views.EntityView),
)  # fmt: skip


def _dataclass_fields(cls: type) -> set[str]:
    return {f.name for f in dataclasses.fields(cls)}


def _api_fields(cls: type) -> set[str]:
    return {f.python_name for f in cls.__strawberry_definition__.fields}  # type: ignore[attr-defined]


def _id(trio: Trio) -> str:
    return trio.api.__name__


@pytest.mark.parametrize("trio", [t for t in RECORDS if t.domain is not None], ids=_id)
def test_the_api_answers_every_field_of_the_domain_record(trio: Trio) -> None:
    assert trio.domain is not None
    domain = {trio.renamed.get(n, n) for n in _dataclass_fields(trio.domain) - trio.domain_only}
    api = _api_fields(trio.api) - trio.api_only
    assert domain - api == set(), "in the domain record, not in the API type"
    assert api - domain == set(), "in the API type, not in the domain record"
    # An exclusion that no longer names a field is stale.
    assert trio.domain_only <= _dataclass_fields(trio.domain)
    assert trio.api_only <= _api_fields(trio.api)


@pytest.mark.parametrize("trio", [t for t in RECORDS if t.client is not None], ids=_id)
def test_the_client_record_reads_every_field_the_api_answers(trio: Trio) -> None:
    assert trio.client is not None
    api = _api_fields(trio.api)
    client = {trio.renamed.get(n, n) for n in _dataclass_fields(trio.client)}
    if trio.client is trio.domain:  # the domain's own record: its own fields may stay unread
        client -= {trio.renamed.get(n, n) for n in trio.domain_only}
        api -= trio.api_only
    assert api - client == set(), "answered by the API, missing from the client record"
    assert client - api == set(), "in the client record, not answered by the API"


def test_every_api_type_a_document_selects_is_a_checked_record() -> None:
    """What the client and the MCP tools read is in RECORDS (or is a root or input type)."""
    checked = {t.api.__strawberry_definition__.name for t in RECORDS}  # type: ignore[attr-defined]
    selected = set(_selections()) - {"Query", "Mutation"}
    assert selected - checked == set()


def _selections() -> dict[str, set[str]]:
    """GraphQL type name -> the fields the client's documents select on it."""
    built = graphql.build_schema(schema.as_str())
    info = graphql.TypeInfo(built)
    selected: dict[str, set[str]] = {}

    class Collect(graphql.Visitor):
        def enter_field(self, node: graphql.FieldNode, *_: object) -> None:
            parent = info.get_parent_type()
            if parent is not None and node.name.value != "__typename":
                selected.setdefault(parent.name, set()).add(node.name.value)

    for name in dir(documents):
        document = getattr(documents, name)
        # Each public document but the fragment the others spread (the _PARTS are pieces).
        if name.isupper() and not name.startswith("_") and name != "MEMORY_FIELDS":
            ast = graphql.parse(document)
            assert graphql.validate(built, ast) == [], name
            graphql.visit(ast, graphql.TypeInfoVisitor(info, Collect()))
    return selected


def test_the_client_documents_select_every_field_of_what_they_ask_for() -> None:
    built = graphql.build_schema(schema.as_str())
    for type_name, fields in _selections().items():
        if type_name in ("Query", "Mutation"):
            continue
        gql_type = built.get_type(type_name)
        assert isinstance(gql_type, graphql.GraphQLObjectType)
        assert set(gql_type.fields) - fields == set(), f"{type_name}: fields left unselected"
