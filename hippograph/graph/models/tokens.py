"""Counting tokens for a prompt budget.

The count uses the embedding model's own tokenizer (``tokenizer.json`` in its directory, the
fast ``tokenizers`` library: no truncation, no special tokens), so it is exact for that model and
deterministic everywhere. Chat models tokenize differently; for English prose the WordPiece
vocabulary of the bundled MiniLM gives about as many tokens as the BPE vocabularies of current
chat models, and more on rare words, so a budget counted here is rarely exceeded there. A model
directory without ``tokenizer.json`` falls back to the documented approximation
``ceil(characters / 4)``, the usual rule of thumb for English (logged once).
"""

from __future__ import annotations

import logging
import math
import threading
from pathlib import Path
from typing import Any

log = logging.getLogger(__name__)
CHARS_PER_TOKEN = 4


class TokenCounter:
    """Counts tokens of texts with the tokenizer of the model in ``model_dir``.

    Args:
        model_dir: a sentence-transformers model directory (the embedding model's).
    """

    def __init__(self, model_dir: str | Path) -> None:
        self.model_dir = Path(model_dir)
        self._tokenizer: Any = None
        self._loaded = False
        self._lock = threading.Lock()

    @property
    def exact(self) -> bool:
        """Whether counts come from the model's tokenizer (not the approximation)."""
        return self._load() is not None

    def _load(self) -> Any:
        with self._lock:
            if not self._loaded:
                self._loaded = True
                path = self.model_dir / "tokenizer.json"
                if path.is_file():
                    from tokenizers import Tokenizer

                    tokenizer = Tokenizer.from_file(str(path))
                    tokenizer.no_truncation()
                    tokenizer.no_padding()
                    self._tokenizer = tokenizer
                else:
                    log.warning(
                        "%s has no tokenizer.json: token budgets use ceil(chars / %d)",
                        self.model_dir,
                        CHARS_PER_TOKEN,
                    )
            return self._tokenizer

    def count(self, text: str) -> int:
        """Tokens in ``text`` (0 for an empty string)."""
        if not text:
            return 0
        tokenizer = self._load()
        if tokenizer is None:
            return math.ceil(len(text) / CHARS_PER_TOKEN)
        return len(tokenizer.encode(text, add_special_tokens=False).ids)

    def truncate(self, text: str, tokens: int) -> str:
        """The longest prefix of ``text`` (cut at a token boundary) of at most ``tokens``."""
        if tokens <= 0:
            return ""
        tokenizer = self._load()
        if tokenizer is None:
            return text[: tokens * CHARS_PER_TOKEN]
        encoding = tokenizer.encode(text, add_special_tokens=False)
        if len(encoding.ids) <= tokens:
            return text
        end = encoding.offsets[tokens - 1][1]
        return text[:end]
