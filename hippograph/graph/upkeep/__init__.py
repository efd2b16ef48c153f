"""What the background jobs compute: consolidation (``consolidation`` runs it; its plan, close
pairs, writes and records in the ``consolidation_*`` and ``close_pairs`` modules), clustering,
PageRank, confidence and edge decay, and the job-run records and locks (``jobruns``).

May import ``store``, ``models``, ``text``, the root modules and ``write`` (the decider, tag
terms).
"""
