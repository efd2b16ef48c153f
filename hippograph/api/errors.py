"""Map Hippograph errors to GraphQL errors, once, and log each error once.

Every error a client sees carries ``extensions.code``:

- a typed Hippograph error: its own code (``BAD_INPUT``, ``NOT_FOUND``, ``LOCKED``...) and
  message, plus the offending field;
- ``GRAPHQL_PARSE_FAILED``: the document is not GraphQL (a syntax error);
- ``GRAPHQL_VALIDATION_FAILED``: it does not fit the schema (an unknown field or argument, an
  unknown enum value or a wrong scalar type written in the query);
- ``BAD_USER_INPUT``: a variable's value does not fit its declared type;
- ``INTERNAL``: anything unexpected, masked (``MASKED_MESSAGE``) and logged with its traceback.

Logging (``HippographErrors``, once the code is known): a client's mistake is one INFO line with its
code; a typed error that is the service's trouble (``SERVICE_CODES``) one WARNING line; only
unexpected errors are logged at ERROR, with the traceback.
"""

from __future__ import annotations

import logging
from collections.abc import Iterator
from typing import Any

import strawberry
from graphql import GraphQLError, GraphQLSyntaxError
from strawberry.extensions import SchemaExtension
from strawberry.types import ExecutionContext, ExecutionResult

from hippograph.graph.errors import HippographError
from hippograph.graph.text import privacy

log = logging.getLogger(__name__)
MASKED_MESSAGE = "Unexpected error; it has been logged."
PARSE_FAILED = "GRAPHQL_PARSE_FAILED"
VALIDATION_FAILED = "GRAPHQL_VALIDATION_FAILED"
BAD_USER_INPUT = "BAD_USER_INPUT"
# Typed errors masked like unexpected ones: a query bug or a server fault.
MASKED_CODES = frozenset({"INTERNAL", "GRAPH_ERROR"})
# Typed errors that are the service's trouble, not the caller's: worth a WARNING.
SERVICE_CODES = frozenset({"GRAPH_UNAVAILABLE", "QUERY_TIMEOUT", "LLM_ERROR"})


def typed(error: GraphQLError) -> HippographError | None:
    """The expected Hippograph error behind ``error``, if it is one."""
    original = error.original_error
    if isinstance(original, HippographError) and original.code not in MASKED_CODES:
        return original
    return None


def unexpected(error: GraphQLError) -> bool:
    """True for an error raised while resolving a field that no typed error explains."""
    return typed(error) is None and error.original_error is not None and error.path is not None


def request_code(error: GraphQLError, *, validation: bool) -> str:
    """The code of an error in the request itself (not raised by a resolver)."""
    if isinstance(error, GraphQLSyntaxError):
        return PARSE_FAILED
    return VALIDATION_FAILED if validation else BAD_USER_INPUT


def to_graphql(error: GraphQLError, *, validation: bool = False) -> GraphQLError:
    """``error`` as the client sees it. ``validation``: it came from validating the document."""
    known = typed(error)
    if known is not None:
        extensions = known.extensions()
    elif unexpected(error):
        return GraphQLError(
            MASKED_MESSAGE, nodes=error.nodes, path=error.path, extensions={"code": "INTERNAL"}
        )
    else:
        # Parsing, validation and variable coercion: the caller's request is wrong; say how.
        extensions = {
            **(error.extensions or {}),
            "code": request_code(error, validation=validation),
        }
    return GraphQLError(
        scrubbed(error.message),
        nodes=error.nodes,
        source=error.source,
        positions=error.positions,
        path=error.path,
        original_error=error.original_error,
        extensions={k: scrubbed(v) for k, v in extensions.items()},
    )


def scrubbed(value: Any) -> Any:
    """``value`` with every string in it redacted (``privacy.apply``): an error's message and
    extensions can echo what the caller sent (an id that names nothing, a variable's value),
    and a secret sent where none belongs must not come back in the answer."""
    if isinstance(value, str):
        return privacy.apply(value, field="error", mode="redact")
    if isinstance(value, list | tuple):
        return [scrubbed(v) for v in value]
    if isinstance(value, dict):
        return {k: scrubbed(v) for k, v in value.items()}
    return value


def log_error(error: GraphQLError, shown: GraphQLError) -> None:
    """Log one error of an operation, once, at the level its kind deserves; ``shown`` is what
    ``to_graphql`` made of it for the client."""
    code = (shown.extensions or {}).get("code", "INTERNAL")
    where = ".".join(map(str, error.path)) if error.path else "request"
    if code == "INTERNAL":
        log.error("unexpected error at %s", where, exc_info=error.original_error or error)
        return
    level = logging.WARNING if code in SERVICE_CODES else logging.INFO
    # Messages can echo what the caller sent: secrets never reach the log.
    message = privacy.apply(shown.message, field="error", mode="redact")
    log.log(level, "%s at %s: %s", code, where, " ".join(message.split()))


class HippographSchema(strawberry.Schema):
    """The Strawberry schema, leaving the logging of errors to this module (one line each, with
    its code) instead of Strawberry's default: every one at ERROR with a traceback."""

    def process_errors(
        self, errors: list[GraphQLError], execution_context: ExecutionContext | None = None
    ) -> None:
        """Nothing: ``HippographErrors`` logs each error once it knows the error's code."""

    async def execute(self, *args: Any, **kwargs: Any) -> ExecutionResult:
        """Strawberry's ``execute``, then the errors ``HippographErrors`` never saw mapped and
        logged: an error raised while entering the parsing hooks (ParserCache parses there, so
        a syntax error) ends the operation before the extension's mapping runs."""
        result = await super().execute(*args, **kwargs)
        if result.errors and any("code" not in (e.extensions or {}) for e in result.errors):
            shown = []
            for error in result.errors:
                if "code" not in (error.extensions or {}):
                    error, raw = to_graphql(error), error
                    log_error(raw, error)
                shown.append(error)
            result.errors = shown
        return result


class HippographErrors(SchemaExtension):
    """Strawberry schema extension applying ``to_graphql`` to every error of an operation."""

    def __init__(self) -> None:
        super().__init__()
        self._invalid: set[int] = set()

    def on_validate(self) -> Iterator[None]:
        yield
        self._invalid = {id(e) for e in self.execution_context.pre_execution_errors or ()}

    def on_operation(self) -> Iterator[None]:
        yield
        result = self.execution_context.result
        if result is not None and result.errors:
            shown = [to_graphql(e, validation=id(e) in self._invalid) for e in result.errors]
            for error, client_error in zip(result.errors, shown, strict=True):
                log_error(error, client_error)
            result.errors = shown
