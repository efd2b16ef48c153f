"""Keys fail closed (#43): open mode is chosen at start (``HIPPOGRAPH_OPEN``), a store that has
had a key never returns to it by revocation, refusing a wrong secret costs the same scrypt
whatever the key id (unknown, revoked, known, the environment's), and a flood of keys to check
runs at most ``KEY_CHECKS`` scrypts at once."""

from __future__ import annotations

import statistics
import threading
import time
from dataclasses import replace
from pathlib import Path

import anyio
import pytest

from hippograph.api import keys
from hippograph.api.access import (
    KEY_CHECKS,
    NO_ACTIVE_KEY,
    Access,
    admitted,
    authenticate,
    key_check_gate,
)
from hippograph.graph.errors import ConfigError, Overloaded, Unauthenticated
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


def test_a_wrong_secret_takes_as_long_for_an_unused_id_as_for_a_used_one(tmp_path: Path) -> None:
    env_token = keys.new_token()
    store = keys.KeyStore(tmp_path, admin_token=env_token)
    known = store.create("known", "read", ["a"])
    revoked = store.create("revoked", "read", ["a"])
    store.revoke(revoked.key.id)
    assert store.verify(known.token) is not None
    wrong = "w" * 43
    ids = {"used": known.key.id, "revoked": revoked.key.id, "unused": "0123456789ab",
           "environment's": env_token.split("_")[1]}  # fmt: skip

    def median_s(key_id: str) -> float:
        times = []
        for _ in range(7):
            started = time.perf_counter()
            assert store.verify(f"hg_{key_id}_{wrong}") is None
            times.append(time.perf_counter() - started)
        return statistics.median(times)

    medians = {name: median_s(key_id) for name, key_id in ids.items()}
    # One scrypt each (~40 ms); without the decoy an unused id answered in microseconds.
    assert max(medians.values()) < 2 * min(medians.values()), medians
    assert min(medians.values()) > 0.005, medians


def _counting_scrypt(monkeypatch: pytest.MonkeyPatch, hold_s: float) -> list[int]:
    """``keys._hash`` made to take ``hold_s`` longer; returns [running now, most at once]."""
    running = [0, 0]
    lock = threading.Lock()
    real = keys._hash

    def slow(secret: str, salt: bytes) -> str:
        with lock:
            running[0] += 1
            running[1] = max(running)
        try:
            time.sleep(hold_s)
            return real(secret, salt)
        finally:
            with lock:
                running[0] -= 1

    monkeypatch.setattr(keys, "_hash", slow)
    return running


def test_a_flood_of_wrong_keys_runs_two_scrypts_and_a_known_key_passes_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    access = Access.of(_settings(tmp_path))
    known = access.keys.create("known", "read", ["a"])
    assert access.keys.verify(known.token) is not None  # verified once: remembered
    running = _counting_scrypt(monkeypatch, 0.1)
    refused: list[str] = []
    passed_during_flood: list[int] = []

    async def wrong(i: int) -> None:
        with pytest.raises(Unauthenticated):
            await admitted(access, f"hg_{i:012x}_{'w' * 43}")
        refused.append(str(i))

    async def main() -> None:
        async with anyio.create_task_group() as flood:
            for i in range(16):
                flood.start_soon(wrong, i)
            await anyio.sleep(0.05)
            principal = await admitted(access, known.token)
            assert principal.key_id == known.key.id
            passed_during_flood.append(len(refused))

    anyio.run(main)
    assert len(refused) == 16
    assert running[1] == KEY_CHECKS  # never more scrypts at once, whatever the flood
    assert passed_during_flood[0] < 8  # the known key did not wait behind the flood


def test_a_key_check_that_waits_too_long_is_refused_overloaded(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    access = replace(Access.of(_settings(tmp_path)), key_checks=key_check_gate(0.3))
    _counting_scrypt(monkeypatch, 0.2)
    outcomes: list[str] = []

    async def wrong(i: int) -> None:
        try:
            await admitted(access, f"hg_{i:012x}_{'w' * 43}")
        except (Unauthenticated, Overloaded) as exc:
            outcomes.append(exc.code)
            if isinstance(exc, Overloaded):
                assert exc.what == "key checks" and "scrypt" in exc.message

    async def main() -> None:
        async with anyio.create_task_group() as flood:
            for i in range(12):
                flood.start_soon(wrong, i)

    anyio.run(main)
    assert len(outcomes) == 12
    assert 0 < outcomes.count("UNAUTHENTICATED") < 12
    assert outcomes.count("OVERLOADED") == 12 - outcomes.count("UNAUTHENTICATED")
