"""GraphQL errors back to Hippograph's typed errors, by ``extensions.code``.

The API maps each error class to a code and its fields to ``extensions`` once
(``hippograph.api.errors``); this is the inverse, so a caller of the client catches the same
``NotFound`` or ``InvalidInput`` (with its ``field`` and ``limit``) as a caller of the library.
A code with no class (``INTERNAL``: masked on the server) or an error the GraphQL layer raised
itself (a variable of the wrong type: no code) is a ``RemoteError``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from hippograph.graph import errors as e

BAD_REQUEST = "BAD_REQUEST"


class RemoteError(e.HippographError):
    """An error the server reported with no Hippograph class to map it to."""

    def __init__(self, code: str, message: str, details: Mapping[str, Any]) -> None:
        super().__init__(message)
        self.code = code
        self.details = dict(details)

    def extensions(self) -> dict[str, object]:
        return {**self.details, "code": self.code}


def _after_prefix(message: str, prefix: str) -> str:
    return message.removeprefix(f"{prefix}: ")


def _invalid(cls: type[e.InvalidInput]) -> Callable[[str, Mapping[str, Any]], e.HippographError]:
    def build(message: str, ext: Mapping[str, Any]) -> e.HippographError:
        field = str(ext["field"])
        return cls(field, _after_prefix(message, field), limit=ext.get("limit"))

    return build


def _config(message: str, ext: Mapping[str, Any]) -> e.HippographError:
    variable, _, rest = message.partition(": ")
    return e.ConfigError(variable, rest)


_BUILDERS: dict[str, Callable[[str, Mapping[str, Any]], e.HippographError]] = {
    e.InvalidInput.code: _invalid(e.InvalidInput),
    e.BatchTooLarge.code: _invalid(e.BatchTooLarge),
    e.NotFound.code: lambda m, x: e.NotFound(x["kind"], x["id"], field=x["field"]),
    e.Conflict.code: lambda m, x: e.Conflict(m),
    e.LockHeld.code: lambda m, x: e.LockHeld(x["lock"], x["holder"], x["since"]),
    e.SupersedeCycle.code: lambda m, x: e.SupersedeCycle(x["oldId"], x["newId"]),
    e.TurnConflict.code: lambda m, x: e.TurnConflict(
        x["session"], int(x["turn"]), x["existingHash"], x["incomingHash"]
    ),
    e.ConfigError.code: _config,
    e.SecretRejected.code: lambda m, x: e.SecretRejected(x["field"], list(x["kinds"])),
    e.DataDirInUse.code: lambda m, x: e.DataDirInUse(m),
    e.GraphUnavailable.code: lambda m, x: e.GraphUnavailable(m),
    e.QueryTimeout.code: lambda m, x: e.QueryTimeout(m, timeout_s=x.get("timeoutS")),
    e.QueryNotFound.code: lambda m, x: e.QueryNotFound(m),
    e.LLMError.code: lambda m, x: e.LLMError(m),
    e.Overloaded.code: lambda m, x: e.Overloaded(x["what"], x["why"]),
    e.Unauthenticated.code: lambda m, x: e.Unauthenticated(m),
    e.Forbidden.code: lambda m, x: e.Forbidden(m),
    e.RateLimited.code: lambda m, x: e.RateLimited(x["keyId"], x["limit"], x["retryAfterS"]),
}


def from_graphql(error: Mapping[str, Any]) -> e.HippographError:
    """The typed error for one entry of a GraphQL response's ``errors``."""
    message = str(error.get("message", ""))
    ext: Mapping[str, Any] = error.get("extensions") or {}
    code = ext.get("code")
    build = _BUILDERS.get(code) if isinstance(code, str) else None
    if build is not None:
        try:
            return build(message, ext)
        except (KeyError, TypeError):  # a server of another version: keep what it said
            pass
    details = {k: v for k, v in ext.items() if k != "code"}
    return RemoteError(code if isinstance(code, str) else BAD_REQUEST, message, details)
