"""The graph store: the official neo4j driver over Bolt (``store``), the embedded ArcadeDB engine
it starts when no URI is configured (``engine``), the per-backend dialect (``dialect``), the
Cypher file loader (``queries``) and a stale-while-revalidating cache (``revalidating``).

May import only ``store``, ``graph.errors``, ``graph.model`` and ``hippograph.settings``.
"""
