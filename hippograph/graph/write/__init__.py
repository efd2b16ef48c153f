"""The one write path: validation and privacy filter (``privacy``), tags and adjacency
(``tagging``, ``formation``), episodes and extraction (``episodes``, ``extract``,
``extract_llm``, ``signals``), the write decision (``decide``) against neighbours
(``neighbours``), applied in one transaction (``writepath``, ``plan``); ``rebuild`` replays it.

May import ``store``, ``models`` and the root modules; not ``recall`` or ``upkeep`` (except the
consolidation lock that ``rebuild`` shares).
"""
