"""The remaining operations (``documents_more`` and the agent views of ``documents``): the
ledger, context bundles, the core block and profile, the explorer's reads, maintenance and
admin actions. Agent-facing answers are typed records (``views``); maintenance and admin
answers are the API's JSON as selected by their documents."""

from __future__ import annotations

from collections.abc import Sequence

from hippograph.client import documents, documents_more, entity_views, views
from hippograph.client.operations import Operation, _vars
from hippograph.client.records import Json
from hippograph.graph import model


def context(
    ns: str,
    context: str,
    *,
    budget: int | None,
    format: str | None,
    session_id: str | None,
    project: str | None,
    k: int | None,
) -> Operation[views.ContextBundle]:
    variables = _vars(namespace=ns, context=context, budget=budget, sessionId=session_id,
                      format=format.upper() if format else None, project=project, k=k)  # fmt: skip
    return Operation(documents.CONTEXT, variables, lambda d: views.bundle(d["context"]))


def observe(
    ns: str,
    session_id: str,
    context: str,
    *,
    budget: int | None,
    format: str | None,
    project: str | None,
    k: int | None,
) -> Operation[views.Observation]:
    variables = _vars(namespace=ns, sessionId=session_id, context=context, budget=budget,
                      format=format.upper() if format else None, project=project, k=k)  # fmt: skip
    return Operation(documents.OBSERVE, variables, lambda d: views.observation(d["observe"]))


def pending(ns: str, session_id: str) -> Operation[views.Pending | None]:
    return Operation(
        documents.PENDING,
        _vars(namespace=ns, sessionId=session_id),
        lambda d: views.pending(d["pending"]),
    )


def used(ns: str, memory_ids: Sequence[str]) -> Operation[views.Used]:
    return Operation(
        documents.USED,
        _vars(namespace=ns, memoryIds=list(memory_ids)),
        lambda d: views.used(d["used"]),
    )


def core(ns: str) -> Operation[views.CoreBlock]:
    return Operation(documents.CORE, _vars(namespace=ns), views.core)


def core_changes(ns: str, first: int | None) -> Operation[list[views.CoreChange]]:
    return Operation(
        documents_more.CORE_CHANGES,
        _vars(namespace=ns, first=first),
        lambda d: [views.core_change(c) for c in d["coreChanges"]],
    )


def profile(ns: str) -> Operation[views.Profile]:
    return Operation(documents.PROFILE, _vars(namespace=ns), lambda d: views.profile(d["profile"]))


def sessions(ns: str, first: int | None, after: str | None) -> Operation[views.SessionPage]:
    return Operation(
        documents_more.SESSIONS,
        _vars(namespace=ns, first=first, after=after),
        lambda d: views.session_page(d["sessions"]),
    )


def conversation(
    ns: str, session_id: str, first: int | None, after: str | None, direction: str
) -> Operation[views.ConversationPage]:
    variables = _vars(namespace=ns, sessionId=session_id, first=first, after=after,
                      direction=direction.upper())  # fmt: skip
    return Operation(
        documents_more.CONVERSATION,
        variables,
        lambda d: views.conversation_page(d["conversation"]),
    )


def episodes(
    ns: str, session_id: str | None, first: int | None, after: str | None
) -> Operation[list[model.Episode]]:
    return Operation(
        documents_more.EPISODES,
        _vars(namespace=ns, sessionId=session_id, first=first, after=after),
        lambda d: [views.episode(e) for e in d["episodes"]],
    )


def erase_turn(ns: str, turn_id: str) -> Operation[views.Erasure]:
    return Operation(
        documents_more.ERASE_TURN,
        _vars(namespace=ns, id=turn_id),
        lambda d: views.erasure(d["erased"]),
    )


def clear_session(ns: str, session_id: str) -> Operation[views.Erasure]:
    return Operation(
        documents_more.CLEAR_SESSION,
        _vars(namespace=ns, sessionId=session_id),
        lambda d: views.erasure(d["erased"]),
    )


def erase(
    ns: str,
    memory_ids: Sequence[str] | None,
    turn_ids: Sequence[str] | None,
    text: str | None,
    dry_run: bool,
) -> Operation[views.Erasure]:
    variables = _vars(
        namespace=ns,
        memoryIds=None if memory_ids is None else list(memory_ids),
        turnIds=None if turn_ids is None else list(turn_ids),
        text=text,
        dryRun=dry_run,
    )
    return Operation(documents_more.ERASE, variables, lambda d: views.erasure(d["erased"]))


def tags(ns: str, first: int | None) -> Operation[list[model.Tag]]:
    return Operation(
        documents_more.TAGS,
        _vars(namespace=ns, first=first),
        lambda d: [model.Tag(name=t["name"], namespace=ns, count=t["count"],
                             description=t["description"]) for t in d["tags"]],
    )  # fmt: skip


def gaps(ns: str, first: int | None) -> Operation[list[views.Gap]]:
    return Operation(
        documents_more.GAPS,
        _vars(namespace=ns, first=first),
        lambda d: [views.gap(g) for g in d["gaps"]],
    )


def _json(document: str, field: str, **variables: object) -> Operation[Json]:
    """An operation whose answer is the API's JSON for ``field`` (maintenance and admin)."""
    return Operation(document, _vars(**variables), lambda d: d[field])


def _json_list(document: str, field: str, **variables: object) -> Operation[list[Json]]:
    return Operation(document, _vars(**variables), lambda d: list(d[field]))


def neighbourhood(
    ns: str,
    memory_id: str,
    *,
    depth: int | None,
    include_superseded: bool,
    include_archived: bool,
    limit: int | None,
    project: str | None = None,
    session_id: str | None = None,
) -> Operation[Json]:
    return _json(documents_more.NEIGHBOURHOOD, "neighbourhood", namespace=ns, id=memory_id,
                 depth=depth, includeSuperseded=include_superseded,
                 includeArchived=include_archived, limit=limit, project=project,
                 sessionId=session_id)  # fmt: skip


def clusters(
    ns: str, first: int | None, project: str | None = None, session_id: str | None = None
) -> Operation[list[Json]]:
    return _json_list(documents_more.CLUSTERS, "clusters", namespace=ns, first=first,
                      project=project, sessionId=session_id)  # fmt: skip


def provenance(
    ns: str, memory_id: str, project: str | None = None, session_id: str | None = None
) -> Operation[list[Json]]:
    return _json_list(documents_more.PROVENANCE, "provenance", namespace=ns, memoryId=memory_id,
                      project=project, sessionId=session_id)  # fmt: skip


def job_runs(name: str | None, first: int | None) -> Operation[list[Json]]:
    return _json_list(documents_more.JOB_RUNS, "jobRuns", name=_upper(name), first=first)


def run_job(name: str, force: bool, ns: str | None) -> Operation[Json]:
    return _json(documents_more.RUN_JOB, "runJob", name=name.upper(), force=force, namespace=ns)


def consolidate(ns: str | None, dry_run: bool, force: bool) -> Operation[Json]:
    return _json(documents_more.CONSOLIDATE, "consolidate", namespace=ns, dryRun=dry_run,
                 force=force)  # fmt: skip


def rebuild(ns: str) -> Operation[Json]:
    return _json(documents_more.REBUILD, "rebuild", namespace=ns)


def keys() -> Operation[list[Json]]:
    return _json_list(documents_more.KEYS, "keys")


def create_key(name: str, role: str, namespaces: Sequence[str]) -> Operation[Json]:
    return _json(documents_more.CREATE_KEY, "createKey", name=name, role=role.upper(),
                 namespaces=list(namespaces))  # fmt: skip


def rotate_key(key_id: str) -> Operation[Json]:
    return _json(documents_more.ROTATE_KEY, "rotateKey", id=key_id)


def revoke_key(key_id: str) -> Operation[Json]:
    return _json(documents_more.REVOKE_KEY, "revokeKey", id=key_id)


def audit(ns: str | None, since: str | None, limit: int | None) -> Operation[list[Json]]:
    return _json_list(documents_more.AUDIT, "audit", namespace=ns, since=since, limit=limit)


def _upper(value: str | None) -> str | None:
    return value.upper() if value is not None else None


def entity(
    ns: str,
    name: str | None,
    entity_id: str | None,
    memories: int | None,
    timeline: int | None,
    types: Sequence[str] | None,
    project: str | None = None,
    session_id: str | None = None,
) -> Operation[entity_views.EntityView]:
    variables = _vars(namespace=ns, name=name, id=entity_id, memories=memories, timeline=timeline,
                      types=None if types is None else list(types), project=project,
                      sessionId=session_id)  # fmt: skip
    return Operation(documents_more.ENTITY, variables, lambda d: entity_views.view(d["entity"]))


def entities(
    ns: str,
    kind: str | None,
    query: str | None,
    first: int | None,
    project: str | None = None,
    session_id: str | None = None,
) -> Operation[list[entity_views.Entity]]:
    return Operation(
        documents_more.ENTITIES,
        _vars(
            namespace=ns, kind=kind, query=query, first=first, project=project, sessionId=session_id
        ),  # fmt: skip
        lambda d: [entity_views.entity(e) for e in d["entities"]],
    )


def define_entity(
    ns: str, name: str, kind: str | None, description: str | None
) -> Operation[entity_views.Entity]:
    return Operation(
        documents_more.DEFINE_ENTITY,
        _vars(namespace=ns, name=name, kind=kind, description=description),
        lambda d: entity_views.entity(d["entity"]),
    )


def relate(
    ns: str, source: str, type_: str, target: str, kind: str | None, since: str | None,
    ended: bool,
) -> Operation[list[entity_views.Relationship]]:  # fmt: skip
    variables = _vars(namespace=ns, to=target, type=type_, kind=kind, since=since, ended=ended)
    variables["from"] = source
    return Operation(
        documents_more.RELATE, variables,
        lambda d: [entity_views.relationship(r) for r in d["relate"]],
    )  # fmt: skip


def merge_entities(
    ns: str, source: str, into: str, reason: str | None
) -> Operation[entity_views.Entity]:
    variables = _vars(namespace=ns, into=into, reason=reason)
    variables["from"] = source
    return Operation(
        documents_more.MERGE_ENTITIES, variables, lambda d: entity_views.entity(d["entity"])
    )


def split_entity(ns: str, entity_id: str) -> Operation[entity_views.Entity]:
    return Operation(
        documents_more.SPLIT_ENTITY,
        _vars(namespace=ns, id=entity_id),
        lambda d: entity_views.entity(d["entity"]),
    )
