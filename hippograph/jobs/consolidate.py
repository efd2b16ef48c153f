"""The consolidation job, and the runtime-level entry points the API and CLI share.

``job(ctx)`` is what the worker runs on its schedule: it finishes any rebuild that died midway,
extracts turns whose buffer is due, then consolidates graph-wide if the gate says it is due; a
run held by another process is counted and skipped, not raised. ``finish_rebuilds`` is what
``serve`` runs at start-up, in the background, for the same half-done rebuilds.
"""

from __future__ import annotations

import logging
import threading
from datetime import timedelta

from hippograph.graph.errors import LockHeld
from hippograph.graph.model import Episode
from hippograph.graph.recall import edits
from hippograph.graph.runtime import Runtime, write_policy
from hippograph.graph.upkeep import consolidation
from hippograph.graph.upkeep.consolidation_model import ConsolidationConfig, ConsolidationReport
from hippograph.graph.write import episodes, rebuild
from hippograph.graph.write.tools import WriteTools
from hippograph.graph.write.tools import write_tools as _write_tools
from hippograph.jobs.models import embedder
from hippograph.jobs.runner import JobContext
from hippograph.settings import Settings

log = logging.getLogger(__name__)


def write_tools(rt: Runtime) -> WriteTools:
    return _write_tools(rt.settings)


def config(settings: Settings) -> ConsolidationConfig:
    return ConsolidationConfig(
        min_interval_s=settings.upkeep.consolidate_min_interval_s,
        min_new_facts=settings.upkeep.consolidate_min_new_facts,
        llm_max_calls=settings.upkeep.consolidate_llm_max_calls,
        weak_grace_days=settings.upkeep.consolidate_weak_grace_days,
    )


def lock_lease(settings: Settings) -> timedelta:
    """The consolidation lock's lease: the same as the jobs' locks."""
    return timedelta(seconds=settings.jobs.lock_lease_s)


def consolidate_now(
    rt: Runtime, *, namespace: str | None = None, dry_run: bool = False, force: bool = False
) -> ConsolidationReport:
    tools = write_tools(rt)
    try:
        return consolidation.consolidate(
            rt.store, namespace=namespace, config=config(rt.settings), decider=tools.decider,
            dry_run=dry_run, force=force, lock_lease=lock_lease(rt.settings),
        )  # fmt: skip
    finally:
        tools.close()


def rebuild_now(rt: Runtime, namespace: str) -> rebuild.RebuildResult:
    tools = write_tools(rt)
    try:
        return rebuild.rebuild(
            rt.store, rt.embedder, namespace, policy=rt.policy, config=tools.extraction,
            lock_lease=lock_lease(rt.settings), edits=edits.replay,
        )  # fmt: skip
    finally:
        tools.close()


def resume_rebuilds(rt: Runtime) -> dict[str, rebuild.RebuildResult]:
    """Finish the rebuilds that died midway (``rebuild.resume``); LockHeld while locked."""
    if not rebuild.unfinished(rt.store):
        return {}
    tools = write_tools(rt)
    try:
        return rebuild.resume(
            rt.store, rt.embedder, policy=rt.policy, config=tools.extraction,
            lock_lease=lock_lease(rt.settings), edits=edits.replay,
        )  # fmt: skip
    finally:
        tools.close()


def finish_rebuilds(rt: Runtime, stop: threading.Event) -> None:
    """Finish the rebuilds that died midway, waiting for the lock as long as it is held (a
    dead holder's lease runs out within ``JOB_LOCK_LEASE_S``) unless ``stop`` is set. Best
    effort: a failure is logged, and the next start-up, worker tick or rebuild tries again."""
    pause = max(0.5, lock_lease(rt.settings).total_seconds() / 4)
    while not stop.is_set():
        try:
            done = resume_rebuilds(rt)
        except LockHeld:
            stop.wait(pause)
            continue
        except Exception:  # noqa: BLE001 - a background thread; the marker stays for next time
            log.exception("finishing a half-done rebuild failed")
            return
        for namespace, result in done.items():
            log.warning("finished the half-done rebuild of %s: %d active", namespace, result.active)
        return


def job(ctx: JobContext) -> None:
    """The scheduled consolidation job (worker, ``jobs run consolidate``, ``runJob``).

    First extracts turns whose buffer is due by age or count (loading the embedding model only
    when there is something to extract), then consolidates if the gate (time since the last
    run and new facts since the watermark) says it is due. A consolidation another process is
    running is reported in the counts, not raised: the next tick retries.
    """
    settings = ctx.config.settings
    tools = _write_tools(settings)
    try:
        if any(ctx.namespace in (None, u.namespace) for u in rebuild.unfinished(ctx.store)):
            # Before extracting: a half-done rebuild left its turns unextracted.
            try:
                done = rebuild.resume(
                    ctx.store, embedder(settings), config=tools.extraction,
                    policy=write_policy(settings, decider=tools.decider),
                    lock_lease=lock_lease(settings), namespace=ctx.namespace,
                    edits=edits.replay,
                )  # fmt: skip
            except LockHeld as exc:
                log.info("consolidation skipped: %s", exc.message)
                ctx.counts["skipped_locked"] = 1
                return
            ctx.counts["rebuilds_finished"] = len(done)
        waiting = episodes.pending(ctx.store, ctx.namespace)
        sessions: dict[tuple[str, str], list[Episode]] = {}
        for e in waiting:
            sessions.setdefault((e.namespace, e.session_id), []).append(e)
        if any(episodes.due(turns, tools.extraction, flush=False) for turns in sessions.values()):
            policy = write_policy(settings, decider=tools.decider)
            extracted, left, actions = episodes.extract_pending(
                ctx.store, embedder(settings), ctx.namespace, policy=policy,
                config=tools.extraction,
            )  # fmt: skip
            ctx.counts["turns_extracted"] += extracted
            ctx.counts["turns_waiting"] = left
            ctx.counts.update({f"extract_{a.lower()}": n for a, n in actions.items()})
        try:
            report = consolidation.consolidate(
                ctx.store, namespace=ctx.namespace,
                config=config(settings),
                decider=tools.decider,
                progress=ctx.progress,
                lock_lease=lock_lease(settings),
            )  # fmt: skip
        except LockHeld as exc:
            log.info("consolidation skipped: %s", exc.message)
            ctx.counts["skipped_locked"] = 1
            return
        if report.skipped:
            ctx.counts["skipped_gate"] = 1
        ctx.counts.update(report.counts)
        if report.errors:
            ctx.counts["group_errors"] = len(report.errors)
    finally:
        tools.close()
