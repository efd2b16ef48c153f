"""The docs' examples run against the real app served on a loopback port, as the integrations'
do (their fixtures, shared)."""

from tests.integrations.conftest import base_url, graphql_url

__all__ = ["base_url", "graphql_url"]
