"""The retrieval cascade: ``retrieval.recall`` reads the question (``candidates.Query``, its
``Cues``) and runs five stages over one ``candidates.Pool``: gather (``gather``, with ``seeds``,
``vocabulary`` and ``standing``), spread (``expand``), score (``rank.rank``), choose
(``rank.choose``) and answer (``surface``), each with its own config (``recall_config``; named
cascades in ``recipes``). ``termstats`` scores full-text hits and budgets their queries by the
namespace's statistics, ``caches`` holds the pools and caches a runtime keeps for its recalls,
``bundle`` and ``nextturn`` build prompt text from a recall, ``feedback`` and ``edits`` are
post-recall upkeep, explicit feedback and its replay.

May import ``store``, ``models``, ``text`` and the root modules.
"""
