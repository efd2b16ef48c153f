"""Confidence decay for memories and for the edges between them. Pure math: the clock is passed in.

Memory confidence::

    confidence = initial * exp(-age_days / half_life) * (1 + 0.1 * ln(access_count + 1)) * trust

clamped to [0, 1].

* ``half_life`` is the spec's name, but the formula divides by it directly, so it is an e-folding
  time: after ``half_life`` days a memory keeps 1/e (~37 %) of its confidence, not half. The
  literal formula is kept so numbers agree with the spec; a true half-life would be
  ``half_life / ln 2`` (a 30-day e-folding time halves in ~20.8 days).
* ``age_days`` is counted from the memory's last *use* on service time: the latest of when the
  service learned it, last access and last reinforcement (never event time). A memory that
  keeps being used does not fade; callers pass that instant as ``last_used_at``. A
  ``last_used_at`` in the future (clock skew) counts as age 0.
* E-folding times by memory type (``DecayConfig``): correction 365 days, preference 90,
  procedure 60, fact 30, negative 365. Negative memories ("X is not true", "don't do Y") are
  guard rails like corrections: forgetting one lets the mistake it records come back, so they
  fade as slowly as corrections. Provenance ``inferred`` overrides the type with 7 days: a
  guess the system made itself must be confirmed by use or it goes quickly.
* Speculative memories (confidence < 0.4) not confirmed within 30 days of being learned are
  archived.

Edge lifecycle (``EdgeLifecycleConfig``): each reinforcement adds 0.1, capped at 1.0. An edge
keeps its confidence for a 7-day grace period after its last reinforcement, then loses 0.05 per
whole 7-day window elapsed since the grace period ended, never below the floor of 0.1.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from datetime import datetime, timedelta

from hippograph.graph.errors import InvalidInput
from hippograph.graph.model import MEMORY_TYPES

INFERRED = "inferred"  # the provenance that decays fast, whatever the type
_DAY = timedelta(days=1)


def _clamp(value: float, low: float, high: float) -> float:
    return min(high, max(low, value))


def _require(field: str, value: float, *, minimum: float, inclusive: bool = False) -> None:
    """Raise InvalidInput unless ``value`` is finite and above (or at, if inclusive) minimum."""
    ok = value >= minimum if inclusive else value > minimum
    if not (math.isfinite(value) and ok):
        bound = ">=" if inclusive else ">"
        raise InvalidInput(field, f"must be finite and {bound} {minimum}, got {value}")


@dataclass(frozen=True, kw_only=True)
class DecayConfig:
    """Memory decay tunables; ``*_days`` are e-folding times (see the module docstring).

    access_boost: weight of ``ln(access_count + 1)`` in the access multiplier.
    speculative_below: confidence under which a memory counts as speculative.
    confirm_within_days: how long a speculative memory may wait for confirmation.
    """

    correction_days: float = 365.0
    preference_days: float = 90.0
    procedure_days: float = 60.0
    fact_days: float = 30.0
    negative_days: float = 365.0
    inferred_days: float = 7.0
    access_boost: float = 0.1
    speculative_below: float = 0.4
    confirm_within_days: float = 30.0

    def __post_init__(self) -> None:
        for memory_type in (*MEMORY_TYPES, INFERRED):
            _require(f"{memory_type}_days", getattr(self, f"{memory_type}_days"), minimum=0.0)
        _require("access_boost", self.access_boost, minimum=0.0, inclusive=True)
        _require("confirm_within_days", self.confirm_within_days, minimum=0.0, inclusive=True)
        if not 0.0 <= self.speculative_below <= 1.0:
            raise InvalidInput("speculative_below", "must be in [0, 1]")

    def half_life(self, memory_type: str, provenance: str) -> float:
        """E-folding time in days for a memory of this type and provenance."""
        if memory_type not in MEMORY_TYPES:
            raise InvalidInput("memory_type", f"must be one of {', '.join(MEMORY_TYPES)}")
        if provenance == INFERRED:
            return self.inferred_days
        days: float = getattr(self, f"{memory_type}_days")
        return days


@dataclass(frozen=True, kw_only=True)
class EdgeLifecycleConfig:
    """Edge tunables.

    reinforce_delta: added to an edge's confidence on each reinforcement.
    cap: confidence never exceeds this.
    grace_days: days after the last reinforcement with no decay.
    per_window: confidence lost per whole window after the grace period.
    window_days: length of one decay window.
    floor: decay never takes confidence below this.
    """

    reinforce_delta: float = 0.1
    cap: float = 1.0
    grace_days: float = 7.0
    per_window: float = 0.05
    window_days: float = 7.0
    floor: float = 0.1

    def __post_init__(self) -> None:
        _require("reinforce_delta", self.reinforce_delta, minimum=0.0, inclusive=True)
        _require("grace_days", self.grace_days, minimum=0.0, inclusive=True)
        _require("per_window", self.per_window, minimum=0.0, inclusive=True)
        _require("window_days", self.window_days, minimum=0.0)
        if not 0.0 <= self.floor <= self.cap <= 1.0:
            raise InvalidInput("floor", "need 0 <= floor <= cap <= 1")


DEFAULT_DECAY = DecayConfig()
DEFAULT_EDGE_LIFECYCLE = EdgeLifecycleConfig()


def memory_confidence(
    *,
    initial: float,
    memory_type: str,
    provenance: str,
    last_used_at: datetime,
    now: datetime,
    access_count: int = 0,
    trust: float = 1.0,
    config: DecayConfig = DEFAULT_DECAY,
) -> float:
    """Current confidence of a memory, clamped to [0, 1].

    initial: confidence the memory was stored with.
    memory_type: one of ``model.MEMORY_TYPES``; picks the e-folding time.
    provenance: where the memory came from; ``"inferred"`` decays in ``inferred_days``.
    last_used_at: latest of creation, last access and last reinforcement.
    now: the current instant (same timezone-awareness as ``last_used_at``).
    access_count: times the memory was retrieved, >= 0.
    trust: multiplier for the trust placed in the memory's source.
    """
    if access_count < 0:
        raise InvalidInput("access_count", "must be >= 0")
    age_days = max(0.0, (now - last_used_at) / _DAY)
    fading = math.exp(-age_days / config.half_life(memory_type, provenance))
    boost = 1.0 + config.access_boost * math.log(access_count + 1)
    return _clamp(initial * fading * boost * trust, 0.0, 1.0)


def should_archive_speculative(
    confidence: float,
    learned_at: datetime,
    confirmed: bool,
    now: datetime,
    *,
    config: DecayConfig = DEFAULT_DECAY,
) -> bool:
    """True for a speculative memory (confidence < 0.4) left unconfirmed for over 30 days.

    At exactly ``confirm_within_days`` the memory is still within its window and is kept.
    """
    speculative = confidence < config.speculative_below
    overdue = now - learned_at > timedelta(days=config.confirm_within_days)
    return speculative and not confirmed and overdue


def reinforce(confidence: float, *, config: EdgeLifecycleConfig = DEFAULT_EDGE_LIFECYCLE) -> float:
    """Confidence after one reinforcement: ``min(cap, confidence + reinforce_delta)``."""
    return min(config.cap, confidence + config.reinforce_delta)


def decayed_edge_confidence(
    confidence: float,
    last_reinforced_at: datetime,
    now: datetime,
    *,
    config: EdgeLifecycleConfig = DEFAULT_EDGE_LIFECYCLE,
) -> float:
    """Edge confidence after linear decay since ``last_reinforced_at``.

    confidence: the value stored at the last reinforcement.
    last_reinforced_at: when the edge was last reinforced (or created).
    now: the current instant.

    No decay during the grace period; then ``per_window`` per whole window elapsed since the
    grace period ended, not below ``floor``. A value already under the floor is left as it is:
    decay never raises confidence.
    """
    past_grace = now - last_reinforced_at - timedelta(days=config.grace_days)
    if past_grace < timedelta(0):
        return confidence
    windows = past_grace // timedelta(days=config.window_days)
    decayed = confidence - windows * config.per_window
    return max(decayed, min(confidence, config.floor))
