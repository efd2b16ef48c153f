"""The one write path: tags and adjacency (``tagging``, ``formation``), the privacy filter over
every field (``scrub``, with ``text.privacy``), episodes and extraction (``episodes``, ``extract``,
``extract_llm``, ``signals``), the write decision (``decide``, reading ``statements``: what
a text says of its subject) against neighbours (``neighbours``), applied in one transaction
(``writepath``, ``plan``); ``rebuild`` replays it; ``migrate`` gives a store written before
what its memories' texts are now indexed by.

May import ``store``, ``models``, ``text`` and the root modules; not ``recall`` or ``upkeep``.
"""
