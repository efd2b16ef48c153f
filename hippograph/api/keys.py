"""API keys: created, listed, rotated and revoked; stored only as salted hashes.

A key reads ``hg_<id>_<secret>``: the id (12 hex digits) finds the record, the secret (32
random bytes, base64url) is checked against its scrypt hash with a per-key salt, compared in
constant time. The secret is shown once, when the key is created or rotated, and never stored.

Each key grants one role on its namespaces: ``read`` (queries), ``write`` (queries and
writes), ``admin`` (also jobs, rebuild, export, audit; keys themselves and operations over
every namespace need an admin key bound to ``*``). A namespace pattern is a namespace
(``team-a``), a prefix ending in ``*`` (``team-a:*`` covers ``team-a:notes``) or ``*`` alone.

The records live in ``<data_dir>/keys.json`` (mode 0600), not in the graph: the server must
know whether keys exist before it binds a port, ``hippograph keys`` must work with or without
a running server, and whoever can read the data directory holds the graph's password anyway,
so the directory's owner is the root of trust. Writers take ``keys.lock`` and replace the file
atomically; readers re-read it when its modification time changes, so a key revoked from the
command line is refused by a running server at its next request.

``HIPPOGRAPH_ADMIN_KEY`` adds one more key, an admin key over ``*`` held only in the
environment (for containers: ``docker-compose.yml`` passes it through).
"""

from __future__ import annotations

import fcntl
import hashlib
import hmac
import json
import os
import re
import secrets
import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import asdict, dataclass, replace
from pathlib import Path
from typing import Literal

from hippograph.graph import clock, validate
from hippograph.graph.errors import InvalidInput, NotFound
from hippograph.graph.model import to_iso

Role = Literal["read", "write", "admin"]
ROLES: tuple[Role, ...] = ("read", "write", "admin")
ALL = "*"
PREFIX = "hg"
ENV_KEY_ID = "env"  # the id of HIPPOGRAPH_ADMIN_KEY's key
_TOKEN = re.compile(r"^hg_([0-9a-f]{12})_([A-Za-z0-9_-]{20,128})$")
# scrypt: 16 MiB and ~40 ms a check; a verified secret is remembered (by its SHA-256) for the
# record it matched, so a key costs one scrypt per process, not one per request.
_SCRYPT = {"n": 2**14, "r": 8, "p": 1, "dklen": 32, "maxmem": 64 * 1024 * 1024}
MAX_NAMESPACES = 64
# What a refused secret is hashed with: every refusal of a well-formed token costs one scrypt,
# whether its id is unknown, revoked or known, so the time taken tells no id apart.
_DECOY_SALT = bytes(16)


@dataclass(frozen=True, kw_only=True)
class ApiKey:
    """One key's record (no secret: only its salt and hash)."""

    id: str
    name: str
    role: Role
    namespaces: tuple[str, ...]
    created_at: str
    salt: str = ""
    hash: str = ""
    rotated_at: str | None = None
    revoked_at: str | None = None

    @property
    def active(self) -> bool:
        return self.revoked_at is None


@dataclass(frozen=True)
class Issued:
    """A key as created or rotated: its record and the one-time token."""

    key: ApiKey
    token: str


def role_at_least(role: Role, needed: Role) -> bool:
    return ROLES.index(role) >= ROLES.index(needed)


def covers(patterns: Sequence[str], namespace: str) -> bool:
    """True when one of ``patterns`` (namespace, ``prefix*`` or ``*``) covers ``namespace``."""
    for pattern in patterns:
        if pattern in (namespace, ALL):
            return True
        if pattern.endswith("*") and namespace.startswith(pattern[:-1]):
            return True
    return False


def check_patterns(patterns: Sequence[str], field: str = "namespaces") -> tuple[str, ...]:
    """``patterns`` validated: each a namespace, a namespace prefix ending in ``*``, or ``*``."""
    if not patterns:
        raise InvalidInput(field, "name at least one namespace, prefix* or *", limit=1)
    if len(patterns) > MAX_NAMESPACES:
        raise InvalidInput(field, f"at most {MAX_NAMESPACES} patterns", limit=MAX_NAMESPACES)
    for pattern in patterns:
        stem = pattern[:-1] if pattern.endswith("*") else pattern
        if pattern != ALL:
            validate.namespace(stem, field)
    return tuple(dict.fromkeys(patterns))


def check_role(role: str, field: str = "role") -> Role:
    if role not in ROLES:
        raise InvalidInput(field, f"{validate.echo(role)} is not one of {', '.join(ROLES)}")
    return role


def parse(token: str) -> tuple[str, str] | None:
    """``(id, secret)`` of a well-formed token, else None."""
    found = _TOKEN.match(token.strip())
    return (found.group(1), found.group(2)) if found else None


def _hash(secret: str, salt: bytes) -> str:
    return hashlib.scrypt(secret.encode(), salt=salt, **_SCRYPT).hex()


def _decoy(secret: str) -> None:
    """Spend on a refused ``secret`` what checking it against a key costs (``_DECOY_SALT``)."""
    _hash(secret, _DECOY_SALT)


def _new_secret(key_id: str) -> tuple[str, str, str]:
    """A fresh token for ``key_id``, with the salt and hash to store."""
    secret = secrets.token_urlsafe(32)
    salt = secrets.token_bytes(16)
    return f"{PREFIX}_{key_id}_{secret}", salt.hex(), _hash(secret, salt)


class KeyStore:
    """The key records of one data directory (thread-safe; several processes may share it)."""

    def __init__(self, data_dir: Path, *, admin_token: str = "") -> None:
        self.path = data_dir / "keys.json"
        self._lock_path = data_dir / "keys.lock"
        self._cached: tuple[tuple[int, int, int], dict[str, ApiKey]] | None = None
        self._verified: dict[tuple[str, str], bytes] = {}
        self._mutex = threading.Lock()
        self._env_key: ApiKey | None = None
        self._env_digest = b""
        if admin_token:
            parsed = parse(admin_token)
            if parsed is None:
                from hippograph.graph.errors import ConfigError

                raise ConfigError(
                    "HIPPOGRAPH_ADMIN_KEY",
                    "must read hg_<12 hex digits>_<secret of 20-128 base64url characters>; "
                    "make one with `hippograph keys token`",
                )
            self._env_key = ApiKey(
                id=parsed[0], name="HIPPOGRAPH_ADMIN_KEY", role="admin", namespaces=(ALL,),
                created_at="",
            )  # fmt: skip
            self._env_digest = hashlib.sha256(parsed[1].encode()).digest()

    # --- reading ------------------------------------------------------------------------

    def _records(self) -> dict[str, ApiKey]:
        try:
            st = self.path.stat()
        except FileNotFoundError:
            return {}
        stamp = (st.st_ino, st.st_mtime_ns, st.st_size)  # a replace makes a new inode
        with self._mutex:
            if self._cached is not None and self._cached[0] == stamp:
                return self._cached[1]
        raw = json.loads(self.path.read_text(encoding="utf-8") or "{}")
        records = {
            r["id"]: ApiKey(**{**r, "namespaces": tuple(r["namespaces"])})
            for r in raw.get("keys", [])
        }
        with self._mutex:
            self._cached = (stamp, records)
        return records

    def configured(self) -> bool:
        """True when any key can be used: the environment's, or an active stored one."""
        return self._env_key is not None or any(k.active for k in self._records().values())

    def created(self) -> int:
        """How many keys were ever stored, revoked ones included (records are never deleted:
        a store that had a key keeps saying so)."""
        return len(self._records())

    def list(self, *, include_revoked: bool = True) -> list[ApiKey]:
        """The stored keys, oldest first (without their salt and hash)."""
        keys = sorted(self._records().values(), key=lambda k: (k.created_at, k.id))
        return [replace(k, salt="", hash="") for k in keys if include_revoked or k.active]

    def remembered(self, token: str) -> ApiKey | None:
        """The active key of ``token`` when checking it costs no scrypt: the environment's key,
        or a stored key this process has verified with this secret before; else None (also for
        a token that ``verify`` would accept after a scrypt)."""
        parsed = parse(token)
        if parsed is None:
            return None
        key_id, secret = parsed
        digest = hashlib.sha256(secret.encode()).digest()
        if self._env_key is not None and key_id == self._env_key.id:
            return self._env_key if hmac.compare_digest(digest, self._env_digest) else None
        key = self._records().get(key_id)
        if key is None or not key.active:
            return None
        with self._mutex:
            known = self._verified.get((key.id, key.hash))
        return key if known is not None and hmac.compare_digest(known, digest) else None

    def verify(self, token: str) -> ApiKey | None:
        """The active key ``token`` belongs to, or None (malformed, unknown, revoked, rotated)."""
        parsed = parse(token)
        if parsed is None:
            return None
        found = self.remembered(token)
        if found is not None:
            return found  # verified before; a different secret is hashed like any other
        key_id, secret = parsed
        env = self._env_key is not None and key_id == self._env_key.id
        key = None if env else self._records().get(key_id)
        if key is None or not key.active:  # a wrong secret for the environment's key too
            _decoy(secret)
            return None
        computed = _hash(secret, bytes.fromhex(key.salt))
        if not hmac.compare_digest(computed, key.hash):
            return None
        with self._mutex:
            self._verified[(key.id, key.hash)] = hashlib.sha256(secret.encode()).digest()
        return key

    # --- writing ------------------------------------------------------------------------

    def create(self, name: str, role: str, namespaces: Sequence[str]) -> Issued:
        """A new key; its token is in the result and nowhere else."""
        if len(name) > 128:
            raise InvalidInput("name", f"is {len(name)} characters; at most 128", limit=128)
        if name:
            validate.identifier(name, "name", 128)
        checked_role = check_role(role)
        patterns = check_patterns(namespaces)
        with self._editing() as records:
            key_id = secrets.token_hex(6)
            while key_id in records:
                key_id = secrets.token_hex(6)
            token, salt, hashed = _new_secret(key_id)
            key = ApiKey(
                id=key_id, name=name, role=checked_role, namespaces=patterns,
                created_at=to_iso(clock.now()), salt=salt, hash=hashed,
            )  # fmt: skip
            records[key_id] = key
        return Issued(replace(key, salt="", hash=""), token)

    def rotate(self, key_id: str) -> Issued:
        """A new secret for an active key; the old token stops working at once."""
        with self._editing() as records:
            key = self._active(records, key_id)
            token, salt, hashed = _new_secret(key.id)
            key = records[key.id] = replace(
                key, salt=salt, hash=hashed, rotated_at=to_iso(clock.now())
            )
        return Issued(replace(key, salt="", hash=""), token)

    def revoke(self, key_id: str) -> ApiKey:
        """Revoke a key for good (its record stays, for the audit trail)."""
        with self._editing() as records:
            key = self._active(records, key_id)
            key = records[key.id] = replace(key, revoked_at=to_iso(clock.now()))
        return replace(key, salt="", hash="")

    @staticmethod
    def _active(records: dict[str, ApiKey], key_id: str) -> ApiKey:
        key = records.get(key_id)
        if key is None or not key.active:
            raise NotFound("api key", key_id)
        return key

    @contextmanager
    def _editing(self) -> Iterator[dict[str, ApiKey]]:
        self.path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        fd = os.open(self._lock_path, os.O_RDWR | os.O_CREAT, 0o600)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX)
            with self._mutex:
                self._cached = None
            records = dict(self._records())
            yield records
            body = json.dumps({"keys": [asdict(k) for k in records.values()]}, indent=1)
            tmp = self.path.with_suffix(".json.tmp")
            tmp.unlink(missing_ok=True)
            out = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
            with os.fdopen(out, "w", encoding="utf-8") as fh:
                fh.write(body)
            tmp.replace(self.path)
            with self._mutex:
                self._cached = None
        finally:
            fcntl.flock(fd, fcntl.LOCK_UN)
            os.close(fd)


def new_token() -> str:
    """A well-formed token to use as ``HIPPOGRAPH_ADMIN_KEY`` (nothing is stored)."""
    return _new_secret(secrets.token_hex(6))[0]
