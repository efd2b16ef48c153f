"""The agent-memory conformance suite (neo4j-labs/agent-memory-tck) against Hippograph: the
adapter (``adapter``, ``mapping``), the pytest plugin that hands it to the suite (``plugin``) and
the runner (``python -m bench.conformance``). The suite itself is not part of this repository."""
