"""Keys fail closed (#43): open mode is chosen at start (``HIPPOGRAPH_OPEN``), a store that has
had a key never returns to it by revocation, and refusing a wrong secret costs the same scrypt
whatever the key id (unknown, revoked, known, the environment's)."""

from __future__ import annotations

from pathlib import Path

import pytest

from hippograph.api import keys
from hippograph.api.access import NO_ACTIVE_KEY, Access, authenticate
from hippograph.graph.errors import ConfigError, Unauthenticated
from hippograph.settings import Settings


def _settings(data_dir: Path, **changes: object) -> Settings:
    return Settings().with_(data_dir=data_dir, **changes)


def test_a_store_that_had_a_key_stays_closed_after_the_last_is_revoked(tmp_path: Path) -> None:
    access = Access.of(_settings(tmp_path))
    assert access.open and authenticate(access, None).key_id == "open"
    issued = access.keys.create("first", "admin", ["*"])  # on the running server
    assert not access.open
    with pytest.raises(Unauthenticated, match="requires an API key"):
        authenticate(access, None)
    access.keys.revoke(issued.key.id)
    assert not access.keys.configured() and not access.open
    with pytest.raises(Unauthenticated) as refused:
        authenticate(access, None)
    assert refused.value.message == NO_ACTIVE_KEY  # says how to proceed
    assert "hippograph keys create" in NO_ACTIVE_KEY and "HIPPOGRAPH_OPEN=1" in NO_ACTIVE_KEY
    # A restart chooses again: auto stays closed; only an explicit 1 opens it.
    assert not Access.of(_settings(tmp_path)).open
    assert "none is active" in Access.of(_settings(tmp_path)).describe()
    reopened = Access.of(_settings(tmp_path, open="1"))
    assert reopened.open and "HIPPOGRAPH_OPEN=1" in reopened.describe()
    assert authenticate(reopened, None).key_id == "open"


def test_open_mode_is_a_start_up_choice(tmp_path: Path) -> None:
    assert "open mode" in Access.of(_settings(tmp_path)).describe()
    assert not Access.of(_settings(tmp_path, open="0")).open
    assert not Access.of(_settings(tmp_path, open="1", host="0.0.0.0")).open
    assert Access.of(_settings(tmp_path, open="1", host="0.0.0.0", insecure=True)).open
    # A command is the data directory's owner wherever the server listens.
    assert Access.of(_settings(tmp_path, host="0.0.0.0"), serving=False).open
    store = keys.KeyStore(tmp_path)
    store.create("k", "read", ["a"])
    assert not Access.of(_settings(tmp_path, open="1")).open  # a key is active: keys rule
    assert Settings().with_(open="true").security.open == "1"
    with pytest.raises(ConfigError, match="HIPPOGRAPH_OPEN"):
        Settings().with_(open="maybe")


def test_a_wrong_secret_costs_one_scrypt_whatever_the_key_id(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    env_token = keys.new_token()
    store = keys.KeyStore(tmp_path, admin_token=env_token)
    known = store.create("known", "read", ["a"])
    revoked = store.create("revoked", "read", ["a"])
    store.revoke(revoked.key.id)
    assert store.verify(known.token) is not None  # verified once: remembered
    calls: list[str] = []
    real = keys._hash

    def counted(secret: str, salt: bytes) -> str:
        calls.append(secret)
        return real(secret, salt)

    monkeypatch.setattr(keys, "_hash", counted)
    wrong = "w" * 43
    for key_id in (known.key.id, revoked.key.id, "0123456789ab", env_token.split("_")[1]):
        calls.clear()
        assert store.verify(f"hg_{key_id}_{wrong}") is None
        assert calls == [wrong], key_id
    calls.clear()
    assert store.verify(known.token) is not None and store.verify(env_token) is not None
    assert calls == []  # a right secret already verified costs no scrypt
