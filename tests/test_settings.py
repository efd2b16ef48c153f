"""Settings: the maintenance jobs' tunables come from the environment, checked, named."""

from __future__ import annotations

from pathlib import Path

import pytest

from hippograph.graph.errors import ConfigError
from hippograph.jobs.config import DEFAULT_JOBS_CONFIG, JobsConfig
from hippograph.settings import Settings


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
    assert config.recall_edge_floor == 0.3


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
    assert Settings.from_env({}).recall_vocabulary_seeds == 20
    assert (
        Settings.from_env({"HIPPOGRAPH_RECALL_VOCABULARY_SEEDS": "0"}).recall_vocabulary_seeds == 0
    )


def test_the_turn_limit_is_read_and_defaults_to_512_kib() -> None:
    assert Settings.from_env({}).max_turn_bytes == 512 * 1024
    assert Settings.from_env({"HIPPOGRAPH_MAX_TURN_BYTES": "400000"}).max_turn_bytes == 400_000


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
    assert Settings.from_env({}).mcp_namespace == "default"
    assert Settings.from_env({"HIPPOGRAPH_MCP_NAMESPACE": "agent-7"}).mcp_namespace == "agent-7"
    with pytest.raises(ConfigError) as caught:
        Settings.from_env({"HIPPOGRAPH_MCP_NAMESPACE": "two words"})
    assert caught.value.variable == "HIPPOGRAPH_MCP_NAMESPACE"
    assert "1-128 characters" in str(caught.value)


def test_the_embedding_cache_dir_is_a_path() -> None:
    settings = Settings.from_env({"HIPPOGRAPH_EMBEDDING_CACHE_DIR": "/tmp/x"})
    assert settings.embedding_cache_dir == Path("/tmp/x")
    assert Settings.from_env({}).embedding_backend == "onnx"


def test_graph_notifications_disabled_are_driver_classifications() -> None:
    import neo4j

    from hippograph.settings import NOTIFICATION_CLASSIFICATIONS

    assert set(NOTIFICATION_CLASSIFICATIONS) == {
        c.value for c in neo4j.NotificationDisabledClassification
    }
    assert Settings.from_env({}).notifications_disabled == ("UNRECOGNIZED",)
    env = {"HIPPOGRAPH_GRAPH_NOTIFICATIONS_DISABLED": "unrecognized, hint"}
    assert Settings.from_env(env).notifications_disabled == ("UNRECOGNIZED", "HINT")
    env = {"HIPPOGRAPH_GRAPH_NOTIFICATIONS_DISABLED": "none"}
    assert Settings.from_env(env).notifications_disabled == ()


def test_an_unknown_notification_classification_names_its_variable() -> None:
    with pytest.raises(ConfigError) as caught:
        Settings.from_env({"HIPPOGRAPH_GRAPH_NOTIFICATIONS_DISABLED": "UNRECOGNIZED,NOISE"})
    assert caught.value.variable == "HIPPOGRAPH_GRAPH_NOTIFICATIONS_DISABLED"
    assert "['NOISE']" in str(caught.value)


@pytest.mark.parametrize(("raw", "on"), [("0", False), ("off", False), ("1", True), ("TRUE", True)])
def test_the_graphiql_switch_is_read_from_the_environment(raw: str, on: bool) -> None:
    assert Settings.from_env({"HIPPOGRAPH_GRAPHIQL": raw}).graphiql is on
    assert Settings.from_env({}).graphiql is True


def test_a_bad_switch_names_its_variable() -> None:
    with pytest.raises(ConfigError) as caught:
        Settings.from_env({"HIPPOGRAPH_GRAPHIQL": "maybe"})
    assert caught.value.variable == "HIPPOGRAPH_GRAPHIQL"
    assert "use 1 or 0" in str(caught.value)


def test_the_web_dir_defaults_to_the_checkout_and_is_a_path() -> None:
    assert (Settings.from_env({}).web_dir / "package.json").is_file()
    assert Settings.from_env({"HIPPOGRAPH_WEB_DIR": "/srv/web"}).web_dir == Path("/srv/web")
