"""Map Hippograph errors to GraphQL errors, once. Expected failures keep their message and get
``extensions.code`` (plus the offending field); anything else is logged and masked."""

from __future__ import annotations

import logging
from collections.abc import Iterator

from graphql import GraphQLError
from strawberry.extensions import SchemaExtension

from hippograph.graph.errors import HippographError

log = logging.getLogger(__name__)
MASKED_MESSAGE = "Unexpected error; it has been logged."


def to_graphql(error: GraphQLError) -> GraphQLError:
    original = error.original_error
    if isinstance(original, HippographError) and original.code not in ("INTERNAL", "GRAPH_ERROR"):
        extensions = original.extensions()
    elif original is None or error.path is None:
        # Parsing, validation and variable coercion: the caller's request is wrong; say how.
        return error
    else:
        log.error("unexpected error in %s", error.path, exc_info=original)
        return GraphQLError(
            MASKED_MESSAGE, nodes=error.nodes, path=error.path, extensions={"code": "INTERNAL"}
        )
    return GraphQLError(
        error.message,
        nodes=error.nodes,
        path=error.path,
        original_error=original,
        extensions=extensions,
    )


class HippographErrors(SchemaExtension):
    """Strawberry schema extension applying ``to_graphql`` to every error of an operation."""

    def on_operation(self) -> Iterator[None]:
        yield
        result = self.execution_context.result
        if result is not None and result.errors:
            result.errors = [to_graphql(e) for e in result.errors]
