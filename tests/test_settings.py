"""Settings: every tunable comes from the environment, checked, named, documented and read."""

from __future__ import annotations

import inspect
import re
from dataclasses import fields
from pathlib import Path

import pytest

from hippograph.graph.errors import ConfigError
from hippograph.graph.recall.recipes import ENTITIES
from hippograph.jobs.config import DEFAULT_JOBS_CONFIG, JobsConfig
from hippograph.settings import (
    ALIASES,
    GROUPS,
    TABLE_DOC,
    VARIABLES,
    Settings,
    markdown_table,
    with_table,
)

ROOT = Path(__file__).resolve().parents[1]


def test_settings_defaults_are_the_jobs_defaults() -> None:
    assert JobsConfig.from_settings(Settings.from_env({})) == DEFAULT_JOBS_CONFIG


def test_job_tunables_are_read_from_the_environment() -> None:
    env = {
        "HIPPOGRAPH_DECAY_FACT_DAYS": "10",
        "HIPPOGRAPH_PAGERANK_DAMPING": "0.9",
        "HIPPOGRAPH_EDGE_FLOOR": "0.05",
        "HIPPOGRAPH_CLUSTER_MIN_CLUSTER_SIZE": "8",
        "HIPPOGRAPH_JOB_CONSOLIDATE_INTERVAL_S": "0",
        "HIPPOGRAPH_RECALL_EDGE_FLOOR": "0.3",
    }
    config = JobsConfig.from_settings(Settings.from_env(env))
    assert config.decay.fact_days == 10.0
    assert config.pagerank.damping == 0.9
    assert config.edges.floor == 0.05
    assert config.cluster.min_cluster_size == 8
    assert config.interval("consolidate") == 0.0
    assert config.settings.recall.min_edge_confidence == 0.3


@pytest.mark.parametrize(
    ("variable", "value"),
    [
        ("HIPPOGRAPH_PAGERANK_DAMPING", "1.5"),
        ("HIPPOGRAPH_DECAY_SPECULATIVE_BELOW", "2"),
        ("HIPPOGRAPH_CLUSTER_MIN_CLUSTER_SIZE", "1"),
        ("HIPPOGRAPH_JOB_BATCH_SIZE", "0"),
        ("HIPPOGRAPH_JOB_EDGES_INTERVAL_S", "-1"),
        ("HIPPOGRAPH_RECALL_EDGE_FLOOR", "1.2"),
        ("HIPPOGRAPH_RECALL_VOCABULARY_SEEDS", "-1"),
        ("HIPPOGRAPH_GC_YOUNG_THRESHOLD", "0"),
        ("HIPPOGRAPH_MAX_TURN_BYTES", "1000"),  # under the memory limit: a turn is at least one
    ],
)
def test_a_bad_tunable_names_its_variable(variable: str, value: str) -> None:
    with pytest.raises(ConfigError) as caught:
        JobsConfig.from_settings(Settings.from_env({variable: value}))
    assert caught.value.variable == variable


def test_the_vocabulary_seeds_are_read_and_default_to_20() -> None:
    assert Settings.from_env({}).recall.vocabulary_seeds == 20
    assert (
        Settings.from_env({"HIPPOGRAPH_RECALL_VOCABULARY_SEEDS": "0"}).recall.vocabulary_seeds == 0
    )


def test_recall_follows_entities_only_when_asked() -> None:
    assert Settings.from_env({}).recall.entities is False
    asked = Settings.from_env({"HIPPOGRAPH_RECALL_ENTITIES": "true"})
    assert asked.recall.entities is True
    assert ENTITIES.gather.entity_seeds > 0 and ENTITIES.spread.mentions_weight > 0


def test_the_turn_limit_is_read_and_defaults_to_512_kib() -> None:
    assert Settings.from_env({}).limits.max_turn_bytes == 512 * 1024
    assert (
        Settings.from_env({"HIPPOGRAPH_MAX_TURN_BYTES": "400000"}).limits.max_turn_bytes == 400_000
    )


def test_a_non_number_names_its_variable() -> None:
    with pytest.raises(ConfigError) as caught:
        Settings.from_env({"HIPPOGRAPH_DECAY_FACT_DAYS": "a month"})
    assert caught.value.variable == "HIPPOGRAPH_DECAY_FACT_DAYS"


def test_an_unknown_embedding_backend_names_its_variable() -> None:
    with pytest.raises(ConfigError) as caught:
        Settings.from_env({"HIPPOGRAPH_EMBEDDING_BACKEND": "tensorflow"})
    assert caught.value.variable == "HIPPOGRAPH_EMBEDDING_BACKEND"
    assert "'onnx' or 'torch'" in str(caught.value)


def test_the_mcp_namespace_is_read_and_checked() -> None:
    assert Settings.from_env({}).server.mcp_namespace == "default"
    assert (
        Settings.from_env({"HIPPOGRAPH_MCP_NAMESPACE": "agent-7"}).server.mcp_namespace == "agent-7"
    )
    with pytest.raises(ConfigError) as caught:
        Settings.from_env({"HIPPOGRAPH_MCP_NAMESPACE": "two words"})
    assert caught.value.variable == "HIPPOGRAPH_MCP_NAMESPACE"
    assert "1-128 characters" in str(caught.value)


def test_the_embedding_cache_dir_is_a_path() -> None:
    settings = Settings.from_env({"HIPPOGRAPH_EMBEDDING_CACHE_DIR": "/tmp/x"})
    assert settings.embedding.cache_dir == Path("/tmp/x")
    assert Settings.from_env({}).embedding.backend == "onnx"


def test_graph_notifications_disabled_are_driver_classifications() -> None:
    import neo4j

    from hippograph.settings import NOTIFICATION_CLASSIFICATIONS

    assert set(NOTIFICATION_CLASSIFICATIONS) == {
        c.value for c in neo4j.NotificationDisabledClassification
    }
    assert Settings.from_env({}).graph.disabled_notifications == ("UNRECOGNIZED",)
    env = {"HIPPOGRAPH_GRAPH_NOTIFICATIONS_DISABLED": "unrecognized, hint"}
    assert Settings.from_env(env).graph.disabled_notifications == ("UNRECOGNIZED", "HINT")
    env = {"HIPPOGRAPH_GRAPH_NOTIFICATIONS_DISABLED": "none"}
    assert Settings.from_env(env).graph.disabled_notifications == ()


def test_an_unknown_notification_classification_names_its_variable() -> None:
    with pytest.raises(ConfigError) as caught:
        Settings.from_env({"HIPPOGRAPH_GRAPH_NOTIFICATIONS_DISABLED": "UNRECOGNIZED,NOISE"})
    assert caught.value.variable == "HIPPOGRAPH_GRAPH_NOTIFICATIONS_DISABLED"
    assert "['NOISE']" in str(caught.value)


@pytest.mark.parametrize(("raw", "on"), [("0", False), ("off", False), ("1", True), ("TRUE", True)])
def test_the_graphiql_switch_is_read_from_the_environment(raw: str, on: bool) -> None:
    assert Settings.from_env({"HIPPOGRAPH_GRAPHIQL": raw}).server.graphiql is on
    assert Settings.from_env({}).server.graphiql is True


def test_a_bad_switch_names_its_variable() -> None:
    with pytest.raises(ConfigError) as caught:
        Settings.from_env({"HIPPOGRAPH_GRAPHIQL": "maybe"})
    assert caught.value.variable == "HIPPOGRAPH_GRAPHIQL"
    assert "use 1 or 0" in str(caught.value)


def test_the_web_dir_defaults_to_the_checkout_and_is_a_path() -> None:
    assert (Settings.from_env({}).server.web_dir / "package.json").is_file()
    assert Settings.from_env({"HIPPOGRAPH_WEB_DIR": "/srv/web"}).server.web_dir == Path("/srv/web")


@pytest.mark.parametrize(
    ("alias", "variable", "setting"),
    [
        ("HIPPOGRAPH_RECALL_EDGE_FLOOR", "HIPPOGRAPH_RECALL_MIN_EDGE_CONFIDENCE", "recall"),
        ("HIPPOGRAPH_EDGE_FLOOR", "HIPPOGRAPH_EDGE_DECAY_FLOOR", "upkeep"),
    ],
)
def test_an_edge_floor_is_read_under_its_new_name_and_its_old_one(
    alias: str, variable: str, setting: str
) -> None:
    assert ALIASES[alias] == variable
    assert VARIABLES[variable][0] == setting
    name = VARIABLES[variable][1].name

    def read(env: dict[str, str]) -> object:
        return getattr(getattr(Settings.from_env(env), setting), name)

    assert read({alias: "0.15"}) == 0.15
    assert read({variable: "0.15"}) == 0.15
    assert read({variable: "0.15", alias: "0.5"}) == 0.15  # the new name wins


@pytest.mark.parametrize(
    "variable",
    [
        "HIPPOGRAPH_RECALL_EDGE_FLOOR",
        "HIPPOGRAPH_RECALL_MIN_EDGE_CONFIDENCE",
        "HIPPOGRAPH_EDGE_FLOOR",
        "HIPPOGRAPH_EDGE_DECAY_FLOOR",
    ],
)
def test_a_bad_edge_floor_names_the_variable_as_set(variable: str) -> None:
    for value in ("1.2", "a lot"):
        with pytest.raises(ConfigError) as caught:
            JobsConfig.from_settings(Settings.from_env({variable: value}))
        assert caught.value.variable == variable


def test_overrides_are_named_as_their_variables() -> None:
    settings = Settings.from_env(
        {"HIPPOGRAPH_PORT": "9000"}, data_dir="/srv/hg", graph_user="ada", host=None
    )
    assert settings.graph.data_dir == Path("/srv/hg")
    assert settings.graph.user == "ada"
    assert settings.server.port == 9000
    assert settings.server.host == "127.0.0.1"  # None leaves the variable's value
    changed = settings.with_(privacy_mode="reject", job_batch_size=7, recall_edge_floor=0.4)
    assert (changed.write.privacy_mode, changed.jobs.batch_size) == ("reject", 7)
    assert changed.recall.min_edge_confidence == 0.4
    assert changed.graph == settings.graph
    with pytest.raises(TypeError, match="HIPPOGRAPH_NO_SUCH"):
        Settings.from_env({}, no_such=1)
    with pytest.raises(ConfigError) as caught:
        settings.with_(max_k=0)
    assert caught.value.variable == "HIPPOGRAPH_MAX_K"


def test_every_variable_is_one_field_of_one_group() -> None:
    names = [f.metadata["variable"] for kind in GROUPS.values() for f in fields(kind)]
    assert len(names) == len(set(names)) == len(VARIABLES)
    assert all(n.startswith("HIPPOGRAPH_") for n in names)
    assert not set(ALIASES) & set(VARIABLES)
    assert {f.name for f in fields(Settings)} == set(GROUPS) | {"aliases_read"}


def _source_outside_settings() -> str:
    files = sorted((ROOT / "hippograph").rglob("*.py"))
    return "\n".join(p.read_text(encoding="utf-8") for p in files if p.name != "settings.py")


def test_every_setting_is_read_outside_settings_py() -> None:
    """A field is read as ``<group>.<field>`` (``settings.graph.uri``, ``upkeep.edge_cap``), or
    through a property of its group that is read so."""
    code = _source_outside_settings()
    unread = []
    for group, kind in GROUPS.items():
        properties = {
            name: inspect.getsource(value.fget)
            for name, value in vars(kind).items()
            if isinstance(value, property) and value.fget is not None
        }
        for f in fields(kind):
            readers = [f.name] + [p for p, src in properties.items() if f"self.{f.name}" in src]
            if not any(re.search(rf"\b{group}\.{name}\b", code) for name in readers):
                unread.append(f"{group}.{f.name}")
    assert unread == []


def test_every_setting_is_documented_in_the_configuration_table() -> None:
    table = markdown_table()
    for variable, (group, f) in VARIABLES.items():
        row = next(line for line in table.splitlines() if line.startswith(f"| `{variable}` |"))
        meaning = row.split(" | ")[3]
        assert f"`{group}.{f.name}`" in row
        assert len(meaning) > 10, variable


def test_the_configuration_table_is_current() -> None:
    """Regenerate it with ``python -m hippograph.settings --write docs/configuration.md``."""
    doc = (ROOT / TABLE_DOC).read_text(encoding="utf-8")
    assert with_table(doc) == doc


@pytest.mark.parametrize(
    ("variables", "named", "said"),
    [
        ({"HIPPOGRAPH_ENGINE_HEAP": "2 GB"}, "HIPPOGRAPH_ENGINE_HEAP", "not a JVM size"),
        ({"HIPPOGRAPH_ENGINE_HEAP": "32m"}, "HIPPOGRAPH_ENGINE_HEAP", "under 64m"),
        ({"HIPPOGRAPH_ENGINE_HEAP_START": "1g"}, "HIPPOGRAPH_ENGINE_HEAP_START", "must not exceed"),
        ({"HIPPOGRAPH_MALLOC_ARENAS": "65"}, "HIPPOGRAPH_MALLOC_ARENAS", "0..64"),
    ],
)
def test_the_footprint_settings_are_checked(
    variables: dict[str, str], named: str, said: str
) -> None:
    with pytest.raises(ConfigError) as raised:
        Settings.from_env(variables)
    assert named in str(raised.value) and said in str(raised.value)
    grown = Settings.from_env(
        {"HIPPOGRAPH_ENGINE_HEAP": "4g", "HIPPOGRAPH_ENGINE_HEAP_START": "1g"}
    )
    assert (grown.graph.engine_heap, grown.graph.engine_heap_start) == ("4g", "1g")
