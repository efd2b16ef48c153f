"""The retrieval cascade: ``retrieval.recall`` runs seeds and pseudo-relevance feedback
(``seeds``), breadth-first expansion (``expand``), one ranking (``rank``, with ``cues``) and
the answer (``surface``), configured by ``recall_config``; ``termstats`` scores full-text
hits and budgets their queries by the namespace's statistics, ``caches`` holds the pools and
caches a runtime keeps for its recalls, ``feedback`` is post-recall upkeep and explicit
feedback.

May import ``store``, ``models``, ``text`` and the root modules.
"""
