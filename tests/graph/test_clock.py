"""The service clock: pinned, moved and released; now_iso and the jobs read it."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from hippograph.graph import clock
from hippograph.graph.model import now_iso, parse_iso
from hippograph.jobs.runner import utcnow

MOMENT = datetime(2023, 5, 8, 13, 56, tzinfo=UTC)


def test_pinned_clock_is_what_every_reader_sees() -> None:
    clock.set_now(MOMENT)
    assert clock.now() == MOMENT == utcnow() == parse_iso(now_iso())
    assert clock.advance(timedelta(days=90)) == MOMENT + timedelta(days=90)
    assert clock.now() == MOMENT + timedelta(days=90)


def test_naive_means_utc_and_none_follows_the_wall_clock() -> None:
    clock.set_now(MOMENT.replace(tzinfo=None))
    assert clock.now() == MOMENT
    clock.set_now(None)
    assert abs(clock.now() - datetime.now(UTC)) < timedelta(seconds=5)


def test_frozen_puts_back_what_was_there() -> None:
    clock.set_now(MOMENT)
    with clock.frozen(MOMENT + timedelta(days=1)) as then:
        assert clock.now() == then == MOMENT + timedelta(days=1)
    assert clock.now() == MOMENT
