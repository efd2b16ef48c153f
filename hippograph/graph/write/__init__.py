"""The one write path: validation and privacy filter (``privacy``), tags and adjacency
(``tagging``, ``formation``), episodes and extraction (``episodes``, ``extract``,
``extract_llm``, ``signals``), the write decision (``decide``, reading ``statements``: what
a text says of its subject) against neighbours (``neighbours``), applied in one transaction
(``writepath``, ``plan``); ``rebuild`` replays it.

May import ``store``, ``models`` and the root modules; not ``recall`` or ``upkeep``.
"""
