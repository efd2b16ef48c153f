"""What opening a Runtime does to its process: the cyclic garbage collector is settled."""

from __future__ import annotations

import gc

from hippograph.graph.runtime import settle_heap
from hippograph.settings import Settings


def test_settling_the_heap_freezes_it_and_collects_the_young_generation_less_often() -> None:
    before = gc.get_threshold()
    young = Settings.from_env({}).gc_young_threshold
    assert young == 50_000  # the default
    try:
        settle_heap(young)
        assert gc.get_threshold() == (young, before[1], before[2])
        assert gc.get_freeze_count() > 10_000  # the model runtime and the driver, out of reach
    finally:
        gc.set_threshold(*before)
