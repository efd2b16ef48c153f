"""Every root field of the GraphQL schema has a typed method in ``Client`` and ``AsyncClient``,
and some client document calls it: a new operation without one fails here."""

from __future__ import annotations

import inspect
import re

from graphql import OperationDefinitionNode, parse

from hippograph.api.schema import schema
from hippograph.client import AsyncClient, Client, documents, documents_more, documents_runs

# Fields a method of another name serves: ``remember`` is the one-item form of
# ``rememberBatch``, which ``Client.remember`` sends for one item or many.
METHOD_OF = {"remember": "remember", "rememberBatch": "remember"}
SERVED_BY_ANOTHER_FIELD = {"remember"}


def snake(name: str) -> str:
    return re.sub(r"(?<!^)(?=[A-Z])", "_", name).lower()


def root_fields() -> list[str]:
    graphql = schema._schema
    return [
        name
        for root in (graphql.query_type, graphql.mutation_type)
        if root is not None
        for name in root.fields
    ]


def called_fields() -> set[str]:
    called: set[str] = set()
    for module in (documents, documents_more, documents_runs):
        for name, value in vars(module).items():
            if not name.isupper() or not isinstance(value, str):
                continue
            if not value.lstrip().startswith(("query", "mutation")):
                continue  # a fragment or a shared selection
            for definition in parse(value).definitions:
                if isinstance(definition, OperationDefinitionNode):
                    called |= {s.name.value for s in definition.selection_set.selections}  # type: ignore[attr-defined]
    return called


def test_every_operation_has_a_typed_method_in_both_clients() -> None:
    fields = root_fields()
    assert len(fields) > 30 and "sessions" in fields and "erase" in fields
    missing = []
    for field in fields:
        method = METHOD_OF.get(field, snake(field))
        sync, awaited = getattr(Client, method, None), getattr(AsyncClient, method, None)
        if sync is None or awaited is None or not inspect.iscoroutinefunction(awaited):
            missing.append(field)
            continue
        for fn in (sync, awaited):
            hints = inspect.signature(fn)
            assert hints.return_annotation is not inspect.Signature.empty, (field, fn)
            assert all(
                p.annotation is not inspect.Parameter.empty
                for p in hints.parameters.values()
                if p.name != "self"
            ), (field, fn)
    assert missing == []


def test_every_operation_is_called_by_a_client_document() -> None:
    assert set(root_fields()) - SERVED_BY_ANOTHER_FIELD <= called_fields()
