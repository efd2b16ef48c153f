"""The domain core: records (``model``), errors, validation, and one module per aggregate
(``memories``, ``history``, ``transfer``, ``vocabulary``), with ``runtime`` wiring them together.

Subpackages, lowest first: ``store`` (driver, engine, dialect, Cypher loader), ``models``
(embedding model, LLM client) and ``text`` (pure text analysis) import nothing above them; the
root modules use those three only (``runtime`` excepted); ``write``, ``recall`` and ``upkeep``
use them and the root modules. Nothing here imports ``hippograph.api`` or ``hippograph.jobs``.
"""
