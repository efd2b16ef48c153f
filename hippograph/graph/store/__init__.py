"""The graph store: the official neo4j driver over Bolt (``store``), the embedded ArcadeDB engine
it starts when no URI is configured (``engine``), the per-backend dialect (``dialect``), the
Cypher file loader (``queries``), a stale-while-revalidating cache (``revalidating``) and the
graph-wide job lock held as a lease with a heartbeat (``lease``).

May import only ``store``, ``graph.errors``, ``graph.model`` and ``hippograph.settings``.
"""
