"""The retrieval cascade: ``retrieval.recall`` runs seeds and pseudo-relevance feedback
(``seeds``), breadth-first expansion (``expand``), one ranking (``rank``, with ``cues``) and
the answer (``surface``), configured by ``recall_config``; ``termstats`` budgets full-text
queries, ``feedback`` is post-recall upkeep and explicit feedback.

May import ``store``, ``models``, the root modules and ``write.tagging``'s vocabulary.
"""
