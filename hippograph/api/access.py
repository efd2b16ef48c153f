"""Access control: who is calling (``authenticate``) and what they may do (``authorize``).

Every surface asks the same two functions: the GraphQL endpoint (``AccessControl``, a schema
extension that checks each root field before it runs), MCP over HTTP (the namespace comes from
the caller's key) and the command line (``cli_access``). A refused call raises
``Unauthenticated`` (no key, or one that is unknown, rotated or revoked) or ``Forbidden``
(the key's namespaces or role do not cover it) before anything is read or written.

Open mode: a server in open mode serves a caller without a key as ``open`` (an admin over
every namespace). It is chosen at start (``Access.of``) and logged: with ``HIPPOGRAPH_OPEN=auto``
(the default) only while the store has never had a key, with ``1`` when no key is active, with
``0`` never; and only on loopback unless ``--insecure`` (``HIPPOGRAPH_INSECURE``). It fails
closed: the first key created while it runs ends it for good (until a restart chooses it
again), and revoking every key leaves the server refusing callers without a key, saying how
to proceed (``NO_ACTIVE_KEY``), never open again. A server bound elsewhere refuses to start
without a key unless ``--insecure``.

What each root field needs is in ``FIELD_ROLES``: the role, over the field's ``namespace``
argument. A field without one, or called without its namespace, spans every namespace and
needs an admin key bound to ``*``; a field missing from the table needs that too (new fields
fail closed until they are classified).
"""

from __future__ import annotations

import inspect
from collections.abc import Awaitable, Callable, Iterator
from dataclasses import dataclass
from typing import Any

from graphql import GraphQLResolveInfo
from graphql.validation import NoSchemaIntrospectionCustomRule
from strawberry.extensions import SchemaExtension

from hippograph.api.audit import AuditLog, erasure_counts
from hippograph.api.keys import ALL, KeyStore, Role, covers, role_at_least
from hippograph.api.ratelimit import RateLimiter
from hippograph.graph.errors import Forbidden, HippographError, Unauthenticated
from hippograph.settings import Settings

LOOPBACK = frozenset({"127.0.0.1", "localhost", "::1", "[::1]"})
OPEN_ID = "open"
LOCAL_ID = "local"

# Root fields: the role each needs over its namespace. None: any authenticated caller (health;
# jobRuns, whose resolver keeps the runs of the caller's namespaces).
FIELD_ROLES: dict[str, Role | None] = {
    "health": None,
    # read
    "memory": "read", "memories": "read", "search": "read", "recall": "read", "tags": "read",
    "history": "read", "episodes": "read", "gaps": "read", "context": "read",
    "pending": "read", "core": "read", "coreChanges": "read", "profile": "read",
    "neighbourhood": "read", "clusters": "read", "provenance": "read",  # the explorer's
    "sessions": "read", "conversation": "read",
    "entity": "read", "entities": "read",
    "run": "read", "runs": "read", "memoryRuns": "read", "similarRuns": "read",  # agent runs
    "toolStats": "read",
    "jobRuns": None,
    # write
    "remember": "write", "rememberBatch": "write", "forget": "write", "link": "write",
    "supersede": "write", "tag": "write", "untag": "write", "ingest": "write",
    "feedback": "write", "observe": "write", "used": "write",
    "eraseTurn": "write", "clearSession": "write", "erase": "write",  # as forget(hard)
    "consolidate": "write",  # without a namespace: every namespace, admin over *
    "relate": "write", "defineEntity": "write", "mergeEntities": "write", "splitEntity": "write",
    "startRun": "write", "addStep": "write", "addToolCall": "write", "updateToolCall": "write",
    "finishRun": "write",
    # admin
    "rebuild": "admin", "runJob": "admin", "audit": "admin",
    "keys": "admin", "createKey": "admin", "rotateKey": "admin", "revokeKey": "admin",
}  # fmt: skip
# Fields over every namespace whatever their arguments.
GLOBAL_FIELDS = frozenset({"keys", "createKey", "rotateKey", "revokeKey"})
# Audited whatever their type: reads of the audit trail and of the keys are admin actions.
AUDITED_QUERIES = frozenset({"audit", "keys"})
# Audited with how many of each thing they removed (``audit.erasure_counts``).
ERASURES = frozenset({"eraseTurn", "clearSession", "erase"})


@dataclass(frozen=True, kw_only=True)
class Principal:
    """An authenticated caller: a key's id, its role and the namespaces it is bound to."""

    key_id: str
    role: Role
    namespaces: tuple[str, ...]

    def may(self, namespace: str | None, role: Role) -> bool:
        if not role_at_least(self.role, role):
            return False
        if namespace is None:
            return self.role == "admin" and ALL in self.namespaces
        return covers(self.namespaces, namespace)

    def sees(self, namespace: str) -> bool:
        """True when ``namespace`` (``*`` for all) is within the key's namespaces."""
        return ALL in self.namespaces if namespace == ALL else covers(self.namespaces, namespace)


OPEN = Principal(key_id=OPEN_ID, role="admin", namespaces=(ALL,))


NO_ACTIVE_KEY = (
    "this server requires an API key and no key is active (the last one was revoked, or "
    "HIPPOGRAPH_OPEN=0): the operator creates one on the server's machine with `hippograph "
    "keys create --role admin -n '*'`, or restarts the server with HIPPOGRAPH_OPEN=1 to serve "
    "without keys"
)


@dataclass(frozen=True)
class Access:
    """What the app checks callers against: its keys, its audit trail, and whether it started
    in open mode (``open_at``: how many keys the store had then; None: keys required)."""

    keys: KeyStore
    audit: AuditLog
    open_at: int | None
    limiter: RateLimiter
    choice: str = "auto"  # HIPPOGRAPH_OPEN, for the log

    @classmethod
    def of(cls, settings: Settings, *, serving: bool = True) -> Access:
        """The access of a server on ``settings`` (``serving``) or of a command, whose callers
        are the data directory's owner wherever the server listens."""
        keys = KeyStore(settings.graph.data_dir, admin_token=settings.security.admin_key)
        exposed = serving and not (is_loopback(settings.server.host) or settings.security.insecure)
        choice = settings.security.open
        created = keys.created()
        opened = not (
            exposed or choice == "0" or keys.configured() or (choice == "auto" and created > 0)
        )
        return cls(
            keys,
            AuditLog(settings.graph.data_dir, max_bytes=settings.security.audit_max_bytes),
            created if opened else None,
            RateLimiter(settings.security.rate_limit_per_minute),
            choice,
        )

    @property
    def open(self) -> bool:
        """True while open mode holds: chosen at start, and no key was created since."""
        return self.open_at is not None and self.keys.created() == self.open_at

    def describe(self) -> str:
        """The access mode, for the start-up log."""
        if self.open:
            return (
                "open mode: callers without a key are admins over every namespace (no active "
                f"key in {self.keys.path}; HIPPOGRAPH_OPEN={self.choice}). The first key "
                "created ends it until a restart"
            )
        if not self.keys.configured():
            return f"keys required, and none is active in {self.keys.path}: {NO_ACTIVE_KEY}"
        return f"keys required ({self.keys.path})"


def is_loopback(host: str) -> bool:
    return host in LOOPBACK or host.startswith("127.")


def bearer(header: str | None) -> str | None:
    """The token of an ``Authorization: Bearer <token>`` header (None without one)."""
    if not header:
        return None
    scheme, _, token = header.strip().partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise Unauthenticated("the Authorization header must read 'Bearer hg_<id>_<secret>'")
    return token.strip()


def authenticate(access: Access, token: str | None) -> Principal:
    """The caller presenting ``token`` (None: no key sent). Raises Unauthenticated."""
    if token is None:
        if access.open:
            return OPEN
        if not access.keys.configured():
            raise Unauthenticated(NO_ACTIVE_KEY)
        raise Unauthenticated(
            "this server requires an API key: send 'Authorization: Bearer hg_<id>_<secret>' "
            "(create one with `hippograph keys create`)"
        )
    key = access.keys.verify(token)
    if key is None:
        raise Unauthenticated("the API key is not valid: unknown, rotated or revoked")
    return Principal(key_id=key.id, role=key.role, namespaces=key.namespaces)


def admit(access: Access, token: str | None) -> Principal:
    """``authenticate``, then take one request from the caller's rate (``api/ratelimit.py``).
    Raises Unauthenticated or RateLimited. Every network surface calls this."""
    principal = authenticate(access, token)
    access.limiter.admit(principal.key_id)
    return principal


def authorize(principal: Principal, namespace: str | None, role: Role, operation: str) -> None:
    """Raise Forbidden unless ``principal`` holds ``role`` over ``namespace`` (None: every
    namespace, which needs an admin key bound to ``*``)."""
    if principal.may(namespace, role):
        return
    where = "every namespace" if namespace is None else f"namespace {namespace!r}"
    raise Forbidden(
        f"{operation}: key {principal.key_id} (role {principal.role}, namespaces "
        f"{', '.join(principal.namespaces)}) may not {role} {where}"
    )


def principal_of(context: Any) -> Principal:
    """The caller of a GraphQL operation. In-process callers with no request (a bare
    ``schema.execute``, MCP over stdio without keys) act as ``open``; a request without a
    principal is refused (fail closed)."""
    if isinstance(context, dict):
        found = context.get("principal")
        if isinstance(found, Principal):
            return found
        if isinstance(found, HippographError):
            raise found
        if context.get("request") is None:
            return OPEN
    raise Unauthenticated("no credentials reached this operation")


def required(field: str, namespace: str | None) -> tuple[Role, str | None] | None:
    """The role ``field`` needs and over which namespace (None: every one); None when any
    authenticated caller may call it."""
    if field not in FIELD_ROLES:
        return "admin", None
    role = FIELD_ROLES[field]
    if role is None:
        return None
    return role, None if field in GLOBAL_FIELDS else namespace


class AccessControl(SchemaExtension):
    """Checks every root field against the caller before its resolver runs, audits writes and
    admin actions, and turns introspection off when ``HIPPOGRAPH_INTROSPECTION=0``."""

    def on_operation(self) -> Iterator[None]:
        context = self.execution_context.context
        settings = context.get("settings") if isinstance(context, dict) else None
        if isinstance(settings, Settings) and not settings.security.introspection:
            self.execution_context.validation_rules = (
                *self.execution_context.validation_rules,
                NoSchemaIntrospectionCustomRule,
            )
        yield

    def resolve(
        self, _next: Callable[..., Any], root: Any, info: GraphQLResolveInfo[Any], *args: Any,
        **kwargs: Any,
    ) -> Any:  # fmt: skip
        if info.path.prev is not None or info.field_name == "__typename":
            return _next(root, info, *args, **kwargs)
        field = info.field_name
        namespace = kwargs.get("namespace")
        # Introspection (__schema, __type): any caller with a key, or anyone in open mode.
        need = (
            None
            if field.startswith("__")
            else required(field, namespace if isinstance(namespace, str) else None)
        )
        audited = info.operation.operation.value == "mutation" or field in AUDITED_QUERIES
        audit = _audit_of(info.context)
        principal: Principal | None = None
        try:
            principal = principal_of(info.context)
            if need is not None:
                authorize(principal, need[1], need[0], field)
        except HippographError as exc:
            if audit is None:
                raise
            if principal is None:  # no valid key: counted and sampled, not each written
                audit.refused(source=source_of(info.context.get("request")), operation=field,
                              namespace=need and need[1], outcome=exc.code)  # fmt: skip
            else:
                audit.record(key_id=principal.key_id, operation=field,
                             namespace=need and need[1], outcome=exc.code)  # fmt: skip
            raise
        result = _next(root, info, *args, **kwargs)
        if not audited or audit is None:
            return result
        scope = namespace if isinstance(namespace, str) else None
        if inspect.isawaitable(result):
            return _audited(result, audit, principal.key_id, field, scope)
        audit.record(key_id=principal.key_id, operation=field, namespace=scope, outcome="ok")
        return result


def source_of(request: Any) -> str:
    """The client address of an HTTP request (``-`` without one)."""
    client = getattr(request, "client", None)
    return str(client.host) if client is not None else "-"


async def _audited(
    result: Awaitable[Any], audit: AuditLog, key_id: str, operation: str, namespace: str | None
) -> Any:
    try:
        value = await result
    except HippographError as exc:
        audit.record(key_id=key_id, operation=operation, namespace=namespace, outcome=exc.code)
        raise
    except Exception:
        audit.record(key_id=key_id, operation=operation, namespace=namespace, outcome="INTERNAL")
        raise
    counts = erasure_counts(value) if operation in ERASURES and value is not None else None
    audit.record(key_id=key_id, operation=operation, namespace=namespace, outcome="ok",
                 counts=counts)  # fmt: skip
    return value


def _audit_of(context: Any) -> AuditLog | None:
    access = context.get("access") if isinstance(context, dict) else None
    return access.audit if isinstance(access, Access) else None
