"""The maintenance jobs' names, in the order the scheduler runs them (a module of its own: the
CLI's parser lists them without importing the jobs)."""

from __future__ import annotations

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
