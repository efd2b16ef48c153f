from __future__ import annotations

import math
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from hippograph.graph.upkeep.decay import (
    DecayConfig,
    EdgeLifecycleConfig,
    decayed_edge_confidence,
    memory_confidence,
    reinforce,
    should_archive_speculative,
)

NOW = datetime(2025, 6, 1, 12, 0, tzinfo=UTC)


def days_ago(days: float) -> datetime:
    return NOW - timedelta(days=days)


def confidence(**overrides: Any) -> float:
    arguments: dict[str, Any] = {
        "initial": 1.0,
        "memory_type": "fact",
        "provenance": "user_stated",
        "last_used_at": NOW,
        "now": NOW,
    }
    return memory_confidence(**(arguments | overrides))


@pytest.mark.parametrize(
    ("memory_type", "half_life"),
    [("correction", 365), ("preference", 90), ("procedure", 60), ("fact", 30), ("negative", 365)],
)
def test_each_type_falls_to_one_over_e_after_its_half_life(
    memory_type: str, half_life: int
) -> None:
    # The spec's formula uses exp(-age / half_life): an e-folding time, not a true half-life.
    at_half_life = confidence(memory_type=memory_type, last_used_at=days_ago(half_life))
    assert at_half_life == pytest.approx(math.exp(-1), rel=1e-12)
    at_30_days = confidence(memory_type=memory_type, last_used_at=days_ago(30))
    assert at_30_days == pytest.approx(math.exp(-30 / half_life), rel=1e-12)


def test_fact_values_at_fixed_ages() -> None:
    assert confidence(initial=0.8, last_used_at=days_ago(0)) == 0.8
    assert confidence(initial=0.8, last_used_at=days_ago(15)) == pytest.approx(
        0.8 * 0.6065306597126334, rel=1e-12
    )
    assert confidence(initial=0.8, last_used_at=days_ago(60)) == pytest.approx(
        0.8 * 0.1353352832366127, rel=1e-12
    )


def test_access_count_boosts_logarithmically() -> None:
    assert confidence(initial=0.5, access_count=0) == 0.5
    # 1 + 0.1 * ln(10) = 1.2302585092994045
    assert confidence(initial=0.5, access_count=9) == pytest.approx(0.61512925464970225)
    assert confidence(initial=0.5, access_count=99) == pytest.approx(
        0.5 * (1 + 0.1 * math.log(100))
    )


def test_trust_multiplies() -> None:
    assert confidence(initial=0.9, trust=0.5) == pytest.approx(0.45, rel=1e-15)
    assert confidence(initial=0.9, trust=0.0) == 0.0
    aged = confidence(initial=0.9, trust=0.5, last_used_at=days_ago(30))
    assert aged == pytest.approx(0.45 * math.exp(-1), rel=1e-12)


def test_result_is_clamped_to_unit_interval() -> None:
    assert confidence(initial=1.0, access_count=1000) == 1.0
    assert confidence(initial=0.9, trust=2.0) == 1.0
    assert confidence(initial=0.9, trust=-1.0) == 0.0
    # Large ages underflow smoothly to zero rather than going negative.
    assert confidence(last_used_at=days_ago(100_000)) == 0.0


def test_inferred_provenance_overrides_the_type() -> None:
    for memory_type in ("fact", "correction", "negative"):
        value = confidence(memory_type=memory_type, provenance="inferred", last_used_at=days_ago(7))
        assert value == pytest.approx(math.exp(-1), rel=1e-12)
    assert confidence(provenance="inferred", last_used_at=days_ago(14)) == pytest.approx(
        math.exp(-2), rel=1e-12
    )


def test_age_counts_from_last_use_and_never_negative() -> None:
    # A memory created a year ago but read yesterday has aged one day.
    assert confidence(last_used_at=days_ago(1)) == pytest.approx(math.exp(-1 / 30), rel=1e-12)
    # A timestamp from the future (clock skew) does not boost confidence.
    assert confidence(initial=0.7, last_used_at=NOW + timedelta(days=3)) == 0.7


def test_custom_half_lives() -> None:
    config = DecayConfig(fact_days=10.0, inferred_days=2.0)
    assert confidence(last_used_at=days_ago(10), config=config) == pytest.approx(math.exp(-1))
    inferred = confidence(provenance="inferred", last_used_at=days_ago(2), config=config)
    assert inferred == pytest.approx(math.exp(-1))


def test_rejects_unknown_type_and_negative_access_count() -> None:
    with pytest.raises(ValueError, match="memory_type"):
        confidence(memory_type="rumour")
    with pytest.raises(ValueError, match="access_count"):
        confidence(access_count=-1)


@pytest.mark.parametrize(
    ("overrides", "field"),
    [
        ({"fact_days": 0.0}, "fact_days"),
        ({"inferred_days": -1.0}, "inferred_days"),
        ({"negative_days": math.inf}, "negative_days"),
        ({"speculative_below": 1.5}, "speculative_below"),
        ({"access_boost": -0.1}, "access_boost"),
    ],
)
def test_decay_config_validates(overrides: dict[str, Any], field: str) -> None:
    with pytest.raises(ValueError, match=field):
        DecayConfig(**overrides)


@pytest.mark.parametrize(
    ("age_days", "expected"),
    [(29, False), (30, False), (31, True)],
)
def test_unconfirmed_speculation_is_archived_after_30_days(age_days: int, expected: bool) -> None:
    assert should_archive_speculative(0.3, days_ago(age_days), False, NOW) is expected


def test_confirmed_or_confident_memories_are_kept() -> None:
    assert should_archive_speculative(0.3, days_ago(31), True, NOW) is False
    assert should_archive_speculative(0.4, days_ago(31), False, NOW) is False  # not speculative
    assert should_archive_speculative(0.39, days_ago(31), False, NOW) is True


def test_archive_threshold_and_window_are_configurable() -> None:
    config = DecayConfig(speculative_below=0.5, confirm_within_days=7)
    assert should_archive_speculative(0.45, days_ago(8), False, NOW, config=config) is True
    assert should_archive_speculative(0.45, days_ago(6), False, NOW, config=config) is False


def test_reinforce_adds_delta_and_caps_at_one() -> None:
    assert reinforce(0.5) == pytest.approx(0.6, rel=1e-15)
    assert reinforce(0.95) == 1.0
    assert reinforce(1.0) == 1.0
    assert reinforce(0.5, config=EdgeLifecycleConfig(reinforce_delta=0.25)) == 0.75


@pytest.mark.parametrize("age_days", [0, 3, 7])
def test_no_edge_decay_during_grace_period(age_days: int) -> None:
    assert decayed_edge_confidence(0.8, days_ago(age_days), NOW) == 0.8


@pytest.mark.parametrize(
    ("age_days", "expected"),
    [
        (7.5, 0.8),  # grace over, no whole window yet
        (13.99, 0.8),
        (14, 0.75),  # one window after the grace period
        (20, 0.75),
        (21, 0.70),
        (7 + 7 * 10, 0.30),
    ],
)
def test_edge_decays_per_whole_window_after_grace(age_days: float, expected: float) -> None:
    assert decayed_edge_confidence(0.8, days_ago(age_days), NOW) == pytest.approx(expected)


def test_edge_decay_stops_at_the_floor() -> None:
    assert decayed_edge_confidence(0.8, days_ago(365), NOW) == 0.1
    assert decayed_edge_confidence(0.12, days_ago(21), NOW) == 0.1
    # Decay never raises a value already below the floor.
    assert decayed_edge_confidence(0.05, days_ago(365), NOW) == 0.05


def test_reinforcement_restarts_the_grace_period() -> None:
    reinforced_at = days_ago(5)
    value = reinforce(decayed_edge_confidence(0.8, days_ago(30), reinforced_at))
    assert value == pytest.approx(0.8)  # 0.8 - 2 windows + 0.1
    assert decayed_edge_confidence(value, reinforced_at, NOW) == pytest.approx(0.8)


def test_edge_lifecycle_config() -> None:
    config = EdgeLifecycleConfig(grace_days=0, per_window=0.2, window_days=1, floor=0.3)
    assert decayed_edge_confidence(0.9, days_ago(1), NOW, config=config) == pytest.approx(0.7)
    assert decayed_edge_confidence(0.9, days_ago(10), NOW, config=config) == 0.3
    with pytest.raises(ValueError, match="window_days"):
        EdgeLifecycleConfig(window_days=0)
    with pytest.raises(ValueError, match="floor"):
        EdgeLifecycleConfig(floor=1.5)
