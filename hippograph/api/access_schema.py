"""GraphQL ``keys``, ``createKey``, ``rotateKey``, ``revokeKey`` and ``audit``: API keys and the
audit trail, for admin keys (``api/access.py`` checks the role before these run)."""

from __future__ import annotations

from datetime import datetime
from enum import Enum

import strawberry
from starlette.concurrency import run_in_threadpool
from strawberry.types import Info

from hippograph.api.access import Access
from hippograph.api.audit import AuditEntry
from hippograph.api.keys import ApiKey as KeyRecord
from hippograph.api.keys import Issued
from hippograph.graph import validate
from hippograph.graph.errors import InvalidInput


@strawberry.enum
class Role(Enum):
    READ = "read"
    WRITE = "write"
    ADMIN = "admin"


@strawberry.type
class ApiKey:
    id: strawberry.ID
    name: str
    role: Role
    namespaces: list[str] = strawberry.field(
        description="Namespaces, prefixes ending in * (team-a:*), or * for all."
    )
    created_at: str
    rotated_at: str | None
    revoked_at: str | None

    @classmethod
    def of(cls, k: KeyRecord) -> ApiKey:
        return cls(
            id=strawberry.ID(k.id), name=k.name, role=Role(k.role), namespaces=list(k.namespaces),
            created_at=k.created_at, rotated_at=k.rotated_at, revoked_at=k.revoked_at,
        )  # fmt: skip


@strawberry.type
class IssuedKey:
    key: ApiKey
    token: str = strawberry.field(
        description="Send as 'Authorization: Bearer <token>'. Shown once: only a hash is kept."
    )

    @classmethod
    def of(cls, issued: Issued) -> IssuedKey:
        return cls(key=ApiKey.of(issued.key), token=issued.token)


@strawberry.type
class AuditRecord:
    at: str
    key_id: str = strawberry.field(description="'open' in open mode, 'local' for a command.")
    operation: str
    namespace: str = strawberry.field(description="'*' for an operation over every namespace.")
    outcome: str = strawberry.field(description="'ok' or the error code.")
    source: str | None = strawberry.field(
        description="The client address of a refusal without a valid key (a sample or the "
        "window's busiest, in a 'refused' summary)."
    )
    counts: list[AuditCount] = strawberry.field(
        description="How many of each thing an erasure removed; a 'refused' summary's "
        "requests, sources and samples."
    )

    @classmethod
    def of(cls, e: AuditEntry) -> AuditRecord:
        return cls(
            at=e.at, key_id=e.key_id, operation=e.operation, namespace=e.namespace,
            outcome=e.outcome, source=e.source,
            counts=[AuditCount(name=k, value=v) for k, v in (e.counts or {}).items()],
        )  # fmt: skip


@strawberry.type
class AuditCount:
    name: str
    value: int


def _access(info: Info) -> Access:
    found = info.context.get("access")
    if not isinstance(found, Access):
        raise InvalidInput("access", "keys and the audit trail are served by the HTTP API only")
    return found


@strawberry.type
class AccessQuery:
    @strawberry.field(description="Every API key, revoked ones included (admin over *).")
    async def keys(self, info: Info) -> list[ApiKey]:
        found = await run_in_threadpool(_access(info).keys.list)
        return [ApiKey.of(k) for k in found]

    @strawberry.field(
        description="Writes and admin actions, newest first: who (key id), what, which "
        "namespace, when, and the outcome. Without a namespace: every one (admin over *)."
    )
    async def audit(
        self,
        info: Info,
        namespace: str | None = None,
        since: datetime | None = None,
        limit: int = 100,
    ) -> list[AuditRecord]:
        if namespace is not None:
            validate.namespace(namespace)
        if not 1 <= limit <= 1000:
            raise InvalidInput("limit", f"{limit} is outside 1..1000", limit=1000)
        log = _access(info).audit
        found = await run_in_threadpool(
            lambda: log.read(namespace=namespace, since=since, limit=limit)
        )
        return [AuditRecord.of(e) for e in found]


@strawberry.type
class AccessMutation:
    @strawberry.mutation(description="A new API key; the token is shown in this answer only.")
    async def create_key(
        self, info: Info, name: str, role: Role, namespaces: list[str]
    ) -> IssuedKey | None:
        store = _access(info).keys
        issued = await run_in_threadpool(store.create, name, role.value, namespaces)
        return IssuedKey.of(issued)

    @strawberry.mutation(description="A new secret for a key; the old token stops working.")
    async def rotate_key(self, info: Info, id: strawberry.ID) -> IssuedKey | None:
        issued = await run_in_threadpool(_access(info).keys.rotate, str(id))
        return IssuedKey.of(issued)

    @strawberry.mutation(description="Revoke a key for good.")
    async def revoke_key(self, info: Info, id: strawberry.ID) -> ApiKey | None:
        return ApiKey.of(await run_in_threadpool(_access(info).keys.revoke, str(id)))
