"""The domain core: records (``model``), errors, validation, and one module per aggregate
(``memories``, ``history``, ``transfer``), with ``runtime`` wiring them together.

Subpackages, lowest first: ``store`` (driver, engine, dialect, Cypher loader) and ``models``
(embedding model, LLM client) import nothing above them; ``write``, ``recall`` and ``upkeep``
use them and the root modules. Nothing here imports ``hippograph.api`` or ``hippograph.jobs``.
"""
