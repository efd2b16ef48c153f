"""The jobs' tunables, one frozen object built from ``Settings``.

Each field maps to a ``Settings`` field of the same name (``HIPPOGRAPH_`` + upper-cased name).
Until Settings declares one, the default here applies.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from datetime import timedelta
from typing import TypeVar

from hippograph.graph.errors import ConfigError, InvalidInput
from hippograph.graph.upkeep.clustering import ClusterConfig
from hippograph.graph.upkeep.core import CoreConfig
from hippograph.graph.upkeep.decay import DecayConfig, EdgeLifecycleConfig
from hippograph.graph.upkeep.pagerank import PageRankConfig
from hippograph.settings import Settings

JOB_NAMES = (
    "pagerank",
    "edges",
    "decay",
    "cluster",
    "consolidate",
    "core",
    "profile",
    "vocabulary",
)


@dataclass(frozen=True, kw_only=True)
class JobsConfig:
    """Schedules, batching, locking and the algorithms' parameters.

    job_*_interval_s: seconds between scheduled runs of each job; 0 disables it in the worker.
    job_batch_size: rows written per transaction (each batch commits on its own).
    job_lock_lease_s: a holder that stops renewing for this long is presumed dead.
    job_retry_after_s: how soon the worker retries a job whose last run did not finish.
    job_run_retention_days: finished JobRun records older than this are deleted.
    recall_edge_floor: edges under this confidence count for neither recall nor PageRank.
    """

    job_pagerank_interval_s: float = 3600.0
    job_edges_interval_s: float = 6 * 3600.0
    job_decay_interval_s: float = 6 * 3600.0
    job_cluster_interval_s: float = 6 * 3600.0
    job_consolidate_interval_s: float = 600.0
    job_core_interval_s: float = 3600.0
    job_profile_interval_s: float = 3600.0
    # Recall's vocabulary seeds (CascadeConfig.vocabulary_seeds) search what this job builds.
    job_vocabulary_interval_s: float = 300.0
    job_batch_size: int = 5000
    job_lock_lease_s: float = 45.0
    job_retry_after_s: float = 300.0
    job_run_retention_days: float = 30.0
    recall_edge_floor: float = 0.2
    pagerank: PageRankConfig = field(default_factory=PageRankConfig)
    decay: DecayConfig = field(default_factory=DecayConfig)
    edges: EdgeLifecycleConfig = field(default_factory=EdgeLifecycleConfig)
    cluster: ClusterConfig = field(default_factory=ClusterConfig)
    core: CoreConfig = field(default_factory=CoreConfig)
    # The whole configuration, for jobs that need more than their own tunables (consolidation
    # reads the LLM endpoint, its gate and the extraction buffer's limits).
    settings: Settings = field(default_factory=Settings, compare=False, repr=False)

    def __post_init__(self) -> None:
        for name in JOB_NAMES:
            if self.interval(name) < 0:
                raise ConfigError(f"HIPPOGRAPH_JOB_{name.upper()}_INTERVAL_S", "must be >= 0")
        if not 1 <= self.job_batch_size <= 100_000:
            raise ConfigError("HIPPOGRAPH_JOB_BATCH_SIZE", "must be in 1..100000")
        if not 5.0 <= self.job_lock_lease_s <= 86400.0:
            raise ConfigError("HIPPOGRAPH_JOB_LOCK_LEASE_S", "must be in 5..86400 seconds")
        if not 0.0 <= self.recall_edge_floor <= 1.0:
            raise ConfigError("HIPPOGRAPH_RECALL_EDGE_FLOOR", "must be in 0..1")

    def interval(self, name: str) -> float:
        value: float = getattr(self, f"job_{name}_interval_s")
        return value

    @property
    def lease(self) -> timedelta:
        return timedelta(seconds=self.job_lock_lease_s)

    @classmethod
    def from_settings(cls, settings: Settings) -> JobsConfig:
        """Read every field Settings declares. Nested configs take prefixed fields:
        ``pagerank_damping``, ``decay_fact_days``, ``edge_floor``, ``cluster_min_cluster_size``."""
        top = {
            f.name: getattr(settings, f.name)
            for f in fields(cls)
            if f.name not in _NESTED and hasattr(settings, f.name)
        }
        return cls(
            **top,
            pagerank=_nested(settings, PageRankConfig, "pagerank_"),
            decay=_nested(settings, DecayConfig, "decay_"),
            edges=_nested(settings, EdgeLifecycleConfig, "edge_"),
            cluster=_nested(settings, ClusterConfig, "cluster_"),
            core=_nested(settings, CoreConfig, "core_"),
            settings=settings,
        )


_NESTED = ("pagerank", "decay", "edges", "cluster", "core", "settings")
T = TypeVar("T")


def _nested(settings: Settings, kind: type[T], prefix: str) -> T:
    values = {
        f.name: getattr(settings, prefix + f.name)
        for f in fields(kind)  # type: ignore[arg-type]
        if hasattr(settings, prefix + f.name)
    }
    try:
        return kind(**values)
    except InvalidInput as exc:  # name the environment variable, not the dataclass field
        variable = f"HIPPOGRAPH_{prefix}{exc.field}".upper()
        raise ConfigError(variable, str(exc).split(": ", 1)[-1]) from exc


DEFAULT_JOBS_CONFIG = JobsConfig()
