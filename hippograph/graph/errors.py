"""Typed errors. Every failure Hippograph expects has a class here with a stable ``code``.

HippographError
├── InvalidInput (also ValueError)  code BAD_INPUT: names `field` and `limit`
│   └── BatchTooLarge  code BATCH_TOO_LARGE
├── NotFound (also LookupError)  code NOT_FOUND: names `kind` and `ident`
├── Conflict  code CONFLICT
│   ├── LockHeld  code LOCKED: a job or consolidation already runs
│   ├── SupersedeCycle  code SUPERSEDE_CYCLE: the supersede would close a cycle (names both ids)
│   └── TurnConflict  code TURN_CONFLICT: a (session, turn) already holds another text
├── ConfigError (also ValueError)  code CONFIG: names the environment variable
├── SecretRejected (also ValueError)  code SECRET_REJECTED: privacy filter in reject mode
├── DataDirInUse  code DATA_DIR_IN_USE: another process holds the engine
├── GraphUnavailable  code GRAPH_UNAVAILABLE: driver could not reach the graph
│   └── QueryTimeout  code QUERY_TIMEOUT: a statement ran past HIPPOGRAPH_QUERY_TIMEOUT_S
├── QueryNotFound (also LookupError)  code QUERY_NOT_FOUND: unknown cypher file name
├── Overloaded  code OVERLOADED: a bounded queue is full; try again later
├── Unauthenticated  code UNAUTHENTICATED: no API key, or one that is unknown, rotated or revoked
├── Forbidden  code FORBIDDEN: the key's namespaces or role do not cover the operation
└── LLMError  code LLM_ERROR: endpoint failed or returned invalid output

The API maps each class to a GraphQL error once (``api/errors.py``); anything else is masked.
"""

from __future__ import annotations


class HippographError(Exception):
    """Base of every expected Hippograph failure."""

    code = "INTERNAL"

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message

    def extensions(self) -> dict[str, object]:
        """Machine-readable details for the API layer."""
        return {"code": self.code}


class InvalidInput(HippographError, ValueError):
    """A value the caller sent is not acceptable; nothing was written."""

    code = "BAD_INPUT"

    def __init__(self, field: str, message: str, *, limit: object | None = None) -> None:
        super().__init__(f"{field}: {message}")
        self.field = field
        self.limit = limit

    def extensions(self) -> dict[str, object]:
        ext: dict[str, object] = {"code": self.code, "field": self.field}
        if self.limit is not None:
            ext["limit"] = self.limit
        return ext


class BatchTooLarge(InvalidInput):
    code = "BATCH_TOO_LARGE"


class NotFound(HippographError, LookupError):
    code = "NOT_FOUND"

    def __init__(self, kind: str, ident: str, *, field: str = "id") -> None:
        super().__init__(f"{field}: {kind} {ident!r} does not exist in this namespace")
        self.kind = kind
        self.ident = ident
        self.field = field

    def extensions(self) -> dict[str, object]:
        return {"code": self.code, "kind": self.kind, "id": self.ident, "field": self.field}


class Conflict(HippographError):
    code = "CONFLICT"


class LockHeld(Conflict):
    code = "LOCKED"

    def __init__(self, name: str, holder: str, since: str) -> None:
        super().__init__(f"{name} is already running (held by {holder} since {since})")
        self.name = name
        self.holder = holder
        self.since = since

    def extensions(self) -> dict[str, object]:
        return {"code": self.code, "lock": self.name, "holder": self.holder, "since": self.since}


class SupersedeCycle(Conflict):
    """``old_id``'s chain already leads back to ``new_id`` (``new_id`` is superseded, directly or
    through later memories, by ``old_id`` or its successor): ``new SUPERSEDES old`` would
    close a cycle, and every memory on it would vanish from search and recall."""

    code = "SUPERSEDE_CYCLE"

    def __init__(self, old_id: str, new_id: str) -> None:
        super().__init__(
            f"memory {new_id} cannot supersede {old_id}: {old_id} already supersedes {new_id} "
            "(directly or through its chain), so the supersession would close a cycle"
        )
        self.old_id = old_id
        self.new_id = new_id

    def extensions(self) -> dict[str, object]:
        return {"code": self.code, "oldId": self.old_id, "newId": self.new_id}


class TurnConflict(Conflict):
    """A turn's (session, turn index) is already taken by a different text, in the store or
    earlier in the same batch; the hashes name both texts without repeating them."""

    code = "TURN_CONFLICT"

    def __init__(self, session: str, turn: int, existing: str, incoming: str) -> None:
        super().__init__(
            f"turn {turn} of session {session!r} already holds another text (sha256 "
            f"{existing[:12]}...), this one differs (sha256 {incoming[:12]}...); nothing was "
            "written: send the turn under a new turn index or the identical text"
        )
        self.session = session
        self.turn = turn
        self.existing = existing
        self.incoming = incoming

    def extensions(self) -> dict[str, object]:
        return {"code": self.code, "session": self.session, "turn": self.turn,
                "existingHash": self.existing, "incomingHash": self.incoming}  # fmt: skip


class ConfigError(HippographError, ValueError):
    code = "CONFIG"

    def __init__(self, variable: str, message: str) -> None:
        super().__init__(f"{variable}: {message}")
        self.variable = variable


class SecretRejected(HippographError, ValueError):
    code = "SECRET_REJECTED"

    def __init__(self, field: str, kinds: list[str], *, redactable: bool = True) -> None:
        # An identifier (a namespace, a tag, a session id) is refused in either mode.
        advice = "remove it or set HIPPOGRAPH_PRIVACY_MODE=redact" if redactable else "remove it"
        super().__init__(
            f"{field}: contains what looks like a secret ({', '.join(sorted(set(kinds)))}); "
            + advice
        )
        self.field = field
        self.kinds = sorted(set(kinds))

    def extensions(self) -> dict[str, object]:
        return {"code": self.code, "field": self.field, "kinds": self.kinds}


class DataDirInUse(HippographError):
    code = "DATA_DIR_IN_USE"


class GraphUnavailable(HippographError):
    code = "GRAPH_UNAVAILABLE"


# What a GraphUnavailable says when the process is stopping (SIGINT, SIGTERM) and refused work.
STOPPING = "the service is stopping: nothing was written; retry"


class QueryTimeout(GraphUnavailable):
    """A graph statement or transaction ran longer than ``HIPPOGRAPH_QUERY_TIMEOUT_S`` allows
    (or a connection to the graph did not come free in that time) and was stopped; what the
    transaction wrote is rolled back."""

    code = "QUERY_TIMEOUT"

    def __init__(self, message: str, *, timeout_s: float | None = None) -> None:
        super().__init__(message)
        self.timeout_s = timeout_s

    def extensions(self) -> dict[str, object]:
        ext: dict[str, object] = {"code": self.code}
        if self.timeout_s is not None:
            ext["timeoutS"] = self.timeout_s
        return ext


class QueryNotFound(HippographError, LookupError):
    code = "QUERY_NOT_FOUND"


class Overloaded(HippographError):
    """A bounded queue or pool is full: nothing was queued; the caller may retry later."""

    code = "OVERLOADED"

    def __init__(self, what: str, why: str) -> None:
        super().__init__(f"{what}: {why}; try again later")
        self.what, self.why = what, why

    def extensions(self) -> dict[str, object]:
        return {"code": self.code, "what": self.what, "why": self.why}


class Unauthenticated(HippographError):
    """The request carries no valid API key where one is required; nothing was touched."""

    code = "UNAUTHENTICATED"


class Forbidden(HippographError):
    """The caller's key does not allow the operation on that namespace; nothing was touched."""

    code = "FORBIDDEN"


class RateLimited(HippographError):
    """The caller's key has used its request rate; nothing ran. Retry after ``retry_after_s``."""

    code = "RATE_LIMITED"

    def __init__(self, key_id: str, per_minute: int, retry_after_s: int) -> None:
        super().__init__(
            f"key {key_id} is over its rate of {per_minute} requests a minute "
            f"(HIPPOGRAPH_RATE_LIMIT_PER_MINUTE); retry in {retry_after_s} s"
        )
        self.key_id, self.per_minute, self.retry_after_s = key_id, per_minute, retry_after_s

    def extensions(self) -> dict[str, object]:
        return {
            "code": self.code,
            "keyId": self.key_id,
            "limit": self.per_minute,
            "retryAfterS": self.retry_after_s,
        }


class LLMError(HippographError):
    code = "LLM_ERROR"
