"""What a job run reads: the settings, and the upkeep algorithms' configs built from them.

Schedules, batching and locking are ``settings.jobs`` itself; the algorithms' parameters come
from ``settings.upkeep`` and are checked here, where their configs are built.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import timedelta

from hippograph.graph.errors import ConfigError, InvalidInput
from hippograph.graph.upkeep.clustering import ClusterConfig
from hippograph.graph.upkeep.core import CoreConfig
from hippograph.graph.upkeep.decay import DecayConfig, EdgeLifecycleConfig
from hippograph.graph.upkeep.pagerank import PageRankConfig
from hippograph.jobs.names import JOB_NAMES as JOB_NAMES
from hippograph.settings import ALIASES, JobSettings, Settings


@dataclass(frozen=True, kw_only=True)
class JobsConfig:
    """The settings and the upkeep algorithms' configs (their defaults equal the settings', a
    test checks).

    settings: the whole configuration; jobs that need more than their own tunables read it
        (consolidation: the LLM endpoint, its gate and the extraction buffer's limits).
    pagerank, decay, edges, cluster, core: the algorithms' configs.
    """

    settings: Settings = field(default_factory=Settings)
    pagerank: PageRankConfig = field(default_factory=PageRankConfig)
    decay: DecayConfig = field(default_factory=DecayConfig)
    edges: EdgeLifecycleConfig = field(default_factory=EdgeLifecycleConfig)
    cluster: ClusterConfig = field(default_factory=ClusterConfig)
    core: CoreConfig = field(default_factory=CoreConfig)

    @property
    def jobs(self) -> JobSettings:
        """Schedules, batching and locking."""
        return self.settings.jobs

    def interval(self, name: str) -> float:
        """Seconds between scheduled runs of job ``name``; 0: the worker does not run it."""
        jobs = self.settings.jobs
        intervals = {
            "pagerank": jobs.pagerank_interval_s,
            "edges": jobs.edges_interval_s,
            "decay": jobs.decay_interval_s,
            "cluster": jobs.cluster_interval_s,
            "consolidate": jobs.consolidate_interval_s,
            "core": jobs.core_interval_s,
            "profile": jobs.profile_interval_s,
            "vocabulary": jobs.vocabulary_interval_s,
        }
        return intervals[name]

    @property
    def lease(self) -> timedelta:
        return timedelta(seconds=self.settings.jobs.lock_lease_s)

    @classmethod
    def from_settings(cls, settings: Settings) -> JobsConfig:
        """Build the algorithms' configs from ``settings.upkeep``; a bad value raises
        ConfigError naming its variable."""
        upkeep = settings.upkeep
        with _named(settings, "pagerank_"):
            pagerank = PageRankConfig(
                damping=upkeep.pagerank_damping,
                max_iterations=upkeep.pagerank_max_iterations,
                tolerance=upkeep.pagerank_tolerance,
            )
        with _named(settings, "decay_"):
            decay = DecayConfig(
                correction_days=upkeep.decay_correction_days,
                preference_days=upkeep.decay_preference_days,
                procedure_days=upkeep.decay_procedure_days,
                fact_days=upkeep.decay_fact_days,
                negative_days=upkeep.decay_negative_days,
                inferred_days=upkeep.decay_inferred_days,
                access_boost=upkeep.decay_access_boost,
                speculative_below=upkeep.decay_speculative_below,
                confirm_within_days=upkeep.decay_confirm_within_days,
            )
        with _named(settings, "edge_"):
            edges = EdgeLifecycleConfig(
                reinforce_delta=upkeep.edge_reinforce_delta,
                cap=upkeep.edge_cap,
                grace_days=upkeep.edge_grace_days,
                per_window=upkeep.edge_per_window,
                window_days=upkeep.edge_window_days,
                floor=upkeep.edge_decay_floor,
            )
        with _named(settings, "cluster_"):
            cluster = ClusterConfig(
                min_cluster_size=upkeep.cluster_min_cluster_size,
                reduce_to=upkeep.cluster_reduce_to,
                reduce_above=upkeep.cluster_reduce_above,
                sample_above=upkeep.cluster_sample_above,
                stable_overlap=upkeep.cluster_stable_overlap,
            )
        with _named(settings, "core_"):
            core = CoreConfig(size=upkeep.core_size, min_uses=upkeep.core_min_uses)
        return cls(
            settings=settings, pagerank=pagerank, decay=decay, edges=edges, cluster=cluster,
            core=core,
        )  # fmt: skip


@contextmanager
def _named(settings: Settings, prefix: str) -> Iterator[None]:
    """Re-raise a config's InvalidInput as ConfigError naming the environment variable."""
    try:
        yield
    except InvalidInput as exc:
        variable = f"HIPPOGRAPH_{prefix}{exc.field}".upper()
        variable = ALIASES.get(variable, variable)  # the edges' floor: EDGE_DECAY_FLOOR
        raise ConfigError(settings.variable(variable), str(exc).split(": ", 1)[-1]) from exc


DEFAULT_JOBS_CONFIG = JobsConfig()
