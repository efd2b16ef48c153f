"""The GraphQL schema: the root Query and Mutation merged from each aggregate's fields."""

from __future__ import annotations

from strawberry.extensions import ParserCache, ValidationCache
from strawberry.tools import merge_types

from hippograph.api.access import AccessControl
from hippograph.api.access_schema import AccessMutation, AccessQuery
from hippograph.api.bundle_schema import BundleMutation, BundleQuery
from hippograph.api.core_schema import CoreQuery
from hippograph.api.entity_schema import EntityMutation, EntityQuery
from hippograph.api.errors import HippographErrors, HippographSchema
from hippograph.api.explore_schema import ExploreQuery
from hippograph.api.ingest_schema import IngestMutation, IngestQuery
from hippograph.api.jobs_schema import JobsMutation, JobsQuery
from hippograph.api.ledger_schema import LedgerMutation, LedgerQuery
from hippograph.api.limits import RequestLimits
from hippograph.api.memory_schema import MemoryMutation, MemoryQuery
from hippograph.api.metrics import OperationMetrics
from hippograph.api.profile_schema import ProfileQuery
from hippograph.api.runs_schema import RunsMutation, RunsQuery
from hippograph.api.usage_schema import UsageMutation

RootQuery = merge_types(
    "Query",
    (
        MemoryQuery,
        IngestQuery,
        LedgerQuery,
        JobsQuery,
        BundleQuery,
        CoreQuery,
        ProfileQuery,
        ExploreQuery,
        AccessQuery,
        EntityQuery,
        RunsQuery,
    ),  # fmt: skip
)
# Every root mutation field is nullable: one failing field of a request answers null with its
# error while the fields that succeeded keep their data (non-null roots made the whole answer
# `data: null`, hiding an earlier remember that was stored).
RootMutation = merge_types(
    "Mutation",
    (
        MemoryMutation,
        IngestMutation,
        LedgerMutation,
        JobsMutation,
        BundleMutation,
        UsageMutation,
        AccessMutation,
        EntityMutation,
        RunsMutation,
    ),  # fmt: skip
)
# Clients send the same few documents with different variables: each is parsed and validated
# once (about 1-2 ms a request for a recall with its selection, otherwise).
schema = HippographSchema(
    query=RootQuery,
    mutation=RootMutation,
    extensions=[
        OperationMetrics,  # first in, last out: it sees the errors with their codes
        HippographErrors,
        RequestLimits,
        AccessControl,  # every root field checked against the caller's key (api/access.py)
        lambda: ParserCache(maxsize=256),  # factories; the caches are shared module-wide
        lambda: ValidationCache(maxsize=256),
    ],
)
