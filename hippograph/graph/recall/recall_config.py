"""Named presets for the retrieval cascade (one place for every constant of `recall`)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, kw_only=True)
class CascadeConfig:
    """Tunables of `retrieval.recall`. Defaults are the design's; see DEFAULT_CASCADE.

    vector_seeds / min_seed_cosine: vector-index seeds and their cosine floor.
    fulltext_seeds: full-text (BM25) seeds added to the vector ones (hybrid seeds).
    speaker_seeds: when the query names one speaker (the speaker cue, which leaves the searched
        text), the nearest memories that speaker said among the vector index's hits (those the
        vector seeds are taken from) also seed, at most this many. The question with its name
        taken out is generic ("what did ... research?"), so the vector seeds are whoever talks
        nearest that topic; the named speaker's nearest turns now seed and spread activation
        too. Read in the seeds' own statement (recall/vector_feedback: the speaker tag of each
        index hit, only when a speaker is named); where the index leaves too few of the
        namespace, or without feedback, by an exact scan of the speaker's memories
        (recall/speaker_seeds_exact). 3: LoCoMo dev recall@10 79.5% overall, 54.8%
        multi-hop, temporal 87.8, open-domain 62.7, single-hop 86.5 (none: 79.3%, 53.9%, 87.8,
        62.7, 86.5); 5: 79.4%, 54.8%, temporal 87.6. BEAM dev unchanged (67.0%: its questions
        name no speaker). Offline, with an exact scan of the speaker's memories instead
        (same values): 3: 79.4%, 54.8%, temporal 87.6; 10: 79.1%, 54.6%, open-domain 60.4
        (more seeds crowd the expansion's frontier); as candidates only, not expanded: 79.3%,
        54.2%.
    vocabulary_seeds / vocabulary_floor / vocabulary_words / vocabulary_per_word: the
        vocabulary seeds (`recall.vocabulary`): the vocabulary_words words of the namespace
        nearest the question (its vocabulary held in memory, built by the `vocabulary` job);
        each over the floor, weighed by (cosine - floor) x rarity, finds at most
        vocabulary_per_word memories holding it; the vocabulary_seeds weightiest memories no
        other source found seed (0: none; `NO_VOCABULARY` below). 20 / 0.35 / 40 / 50: LoCoMo
        dev recall@10 80.1% -> 80.5% overall, multi-hop 55.3 -> 55.7, temporal 87.8 -> 89.0,
        open-domain 62.7, single-hop 87.4 -> 87.7; BEAM dev 67.3% -> 67.1% (event ordering
        23.2 -> 21.5, summarization 15.3 -> 14.9, both still above vector search's 11.1 and
        13.0; information extraction 73.3 unchanged). Recall latency at 100,000 memories
        (`bench/latency.py`, over HTTP): on the issue's store, where every word is held by
        5,000 memories or more, the path ends after the nearest-word product (~0.1 ms); on a
        store with a natural vocabulary (`--words 4`) its full-text reads (~10 words, ~9 ms)
        took p50 49.8 -> 55.7 ms, p95 70.3 -> 91.1 ms (`HIPPOGRAPH_RECALL_VOCABULARY_SEEDS=0`
        turns them off where that matters more than recall). Offline on the
        same stores: 30 or 40 seeds: LoCoMo multi-hop 55.1 (20: 56.0 in that run); 80 words: as
        40; a floor of 0.3: 55.0; 20 memories a word: 55.9; at most 4, 6 or 10 words searched
        (cheaper on a natural vocabulary): 55.6; leaving out only what another
        source seeded (not every hit): LoCoMo 80.3%, 55.1%, open-domain 60.4; the question's
        own words searched too: unchanged on BEAM; 10 or 30 seeds: the same on BEAM. The
        memories' weight added to their score (weight 1, any length): BEAM information
        extraction 73.3 -> 78.3 (one question) but LoCoMo multi-hop 55.4 -> 52.0; only for
        memories longer than the model reads: no change.
    fulltext_hits: full-text hits fetched to score relevance (their maximum normalizes it).
    fulltext_oversample / fulltext_max_candidates: the full-text index is shared by every
        namespace and filtered after it, so it is asked for fulltext_hits x oversample hits,
        then ten times more while the filters leave fewer than fulltext_hits and the index had
        more, up to the maximum (a bound on the cost of a query whose words are everywhere).
        Its cost grows with the hits asked for (ArcadeDB, 10,000 memories: 500 hits ~15 ms,
        100 hits ~5 ms), so the first ask is small.
    forms_below: a query word the namespace holds fewer times than this (in that form) is
        searched in its other forms too ("camped": camp, camps, camping), which score as the
        word. 5: LoCoMo dev recall@10 78.6% overall, 54.0% multi-hop (no forms: 78.3%, 51.8%;
        forms of every word: 78.4%, 52.8%, and BEAM dev 56.2% against 56.7%: a word frequent in
        the asked form only gains more of the same topic); the one threshold tried. The forms
        are English regular inflection by rules (`recall.forms`: recommended -> recommend,
        cities -> city, tried -> try, planned -> plan); before, the write path's crude stemmer
        made them and missed every base ending in d or s and every y -> ies: on the kept dev
        stores LoCoMo 80.5% overall, multi-hop 55.7 -> 56.3 (temporal 88.8 -> 88.2: one
        question), BEAM 69.6% -> 69.3% (temporal 95.0 -> 92.5: one of two evidence turns of
        one question from rank 8 to 11). Searching a form only where the namespace holds it
        fewer than 20 or 50 times: LoCoMo multi-hop 56.6, BEAM the same; 5: 55.8 and 68.9.
    context_weight: a word a memory is indexed by only through its context (the previous
        memory of its session, both at most 1000 characters: `write.context`) counts this much
        in its full-text score, a word of its own content 1 per occurrence. 0.25: LoCoMo dev
        recall@10 79.1% overall, 54.8% multi-hop (no context: 78.7%, 53.8%), BEAM dev 65.3% (64.9%);
        0.5: 79.2%, 54.4% but temporal 85.6% and open-domain 60.4% (86.3%, 62.7%). Without the
        length bound BEAM dev fell to 63.9% (instruction following 45.0%, under vector search's
        51.2%): every user turn took the words of the ~4 KB answer before it. Also scaling the
        weight by min(1, own words / context words): LoCoMo 78.9%, 54.0%, BEAM 65.2%.
    df_share: in the full-text score (BM25, `termstats.bm25`) a word held by more than this
        share of the namespace's memories weighs as one held by that share: its idf stays at
        log(1 + (1 - share) / share) (1.61 at 0.2) instead of falling toward 0. A topic that
        runs through a whole chat (a project's "app", "writing", "triangle" in a third of its
        memories) still tells its memories from the others, which matters to summaries and
        ordering questions. 0.2: BEAM dev recall@10 66.3% -> 67.0% (same-run vector 58.0%; no
        category lower: multi-session 63.4 -> 65.1, knowledge update 94.6 -> 96.2, event
        ordering 22.5 -> 24.2, summarization 13.9 -> 15.3), LoCoMo dev unchanged (79.3%, 53.9%
        multi-hop: no question moves; its speakers' names, the words above 20% there, leave the
        query as the speaker cue). 0.1: LoCoMo 79.4%, 53.9%; BEAM 65.7% (instruction following
        61.3 -> 56.2). Scoring a word by the fetched candidates holding it instead (what a
        recall's first ask did before frequencies were counted on its path): LoCoMo 79.0%,
        53.9%; BEAM 66.2%.
    alpha: relevance = alpha * cosine + (1 - alpha) * normalized full-text score.
    prf_weight / prf_depth: pseudo-relevance feedback; the query vector moves toward the mean
        of the prf_depth most relevant memories. Every candidate's cosine (so its relevance)
        is taken against the moved vector, and the vector seeds are the first search's hits
        and the full-text hits re-ranked by it (held to min_seed_cosine). Without feedback
        LoCoMo dev recall@10 is 73.9% overall, 46.8% multi-hop; with it 74.8%, 49.4%.
    prf_search: instead, search the vector index again with the moved vector (its top
        vector_seeds become the seeds). Off: on LoCoMo dev it gives the same 74.8% recall@10
        (multi-hop 49.7%, within a question of the re-ranking) for a second index search on
        every recall's critical path (p50 +4.0 ms, p95 +5.9 ms at 100k memories,
        interleaved in-process runs).
    depth / hop_decay / fan_out: breadth-first expansion; activation x hop_decay per hop;
        at most fan_out edges followed per node and edge kind.
    frontier: at most this many memories expanded on the first hop (strongest first). 20,
        not 40: the same LoCoMo dev recall@10 (74.7%) for half the engine work of the hop
        after it (measured when this one bound served every hop).
    later_frontier: the same bound for the hops after the first, which spread activation
        already decayed. 15: LoCoMo dev recall@10 74.8% overall, 49.8% multi-hop (20: 74.7%,
        49.7%; 10: 74.5%, 48.0%), recall at 100k ~1 ms faster than at 20 (interleaved runs).
    *_weight: edge weights (RELATES_TO uses its own weight x confidence); a tag's weight is
        scaled by its rarity, log(n / degree) / log(n), n the namespace's memory count.
    max_tag_degree / max_cluster_size: hubs above these sizes are not expanded.
    edge_floor: RELATES_TO edges below this confidence are ignored.
    activation_weight: how much graph activation adds to relevance in the final score.
    speaker_weight: bonus for a memory said by the one speaker the query names.
    addressee_weight: bonus for a memory said by the restating speaker (the assistant: see
        restating_ratio) when no speaker is named and the query asks what the one it is put to
        said before (cues.asks_addressee: "How did you recommend ...?", "your advice"; not "What
        would you suggest?"). Asked of a person's memory of working with an assistant, "you"
        is the assistant. Smaller than speaker_weight: such a question's evidence is the
        exchange, the person's request beside the answer. 0.1: BEAM dev information
        extraction 73.3% -> 75.0% (same-run vector 75.0%), no other category moved (re-ranking
        the captured top 300 offline: 0.05 and 0.1 alike; 0.2 and 0.3: 72.5%, the requests
        pushed out). LoCoMo unchanged: no speaker restates there. The same cue for "I" (the
        person's own turns, "What did I mention ...?"): 70.8%, where the answer restates
        what the person said, so it is not taken.
    time_weight / time_slack_days: bonus for a memory dated inside a period the query names.
    importance_weight: multiplier (1 + w * importance) from PageRank importance.
    length_weight / long_memory_chars: a memory longer than long_memory_chars characters
        (about what all-MiniLM-L6-v2 reads: 256 word pieces) has the activation it receives
        x 1 / (1 + weight * ln(length / long_memory_chars)), and its normalised full-text score
        the same with fulltext_length_weight; its cosine counts whole. Long answers match
        many query words and gather activation by their length alone: on BEAM dev
        (user-assistant chats, assistant turns ~4 KB; both parts at weight 1) recall@10
        56.7% -> 64.9% (vector 58.0%), LoCoMo dev unchanged (no turn over 1000 characters).
        Also discounting the cosine (the whole score): 65.0% but information extraction 69.2%
        (vector 75.0%). Scoring long memories by their best 1000-character passage instead
        (max cosine, re-ranking the top 200 offline) moved recall@10 by -0.2 to +0.4.
    fulltext_length_weight: the weight of that discount for the full-text part. BM25 counts
        every occurrence of a query word and corrects for a memory's length only in part
        (b = 0.75): an answer of several kilobytes holds most words of its topic by its length,
        and outranked the short turn or the shorter answer that holds the fact. 1.5: BEAM dev
        recall@10 67.0% -> 67.3% (same-run vector 58.0%; information extraction 70.8 -> 73.3,
        vector 75.0; summarization 15.3 -> 15.8; no category lower), LoCoMo dev unchanged
        (79.3%, 53.9% multi-hop: no turn there is over 1000 characters). 3.0: 66.3%
        (information extraction 73.3, but instruction following 56.2, temporal 92.5, knowledge
        update 94.6: a seed's relevance is also the activation it passes on). Offline (the top
        200 re-ranked, what a seed passes on unchanged) 5.0: 67.0%; a weaker discount instead
        (0.5 on both parts): 66.0%, instruction following 56.2%. Still under vector search on
        information extraction: where a question asks for the assistant's advice, the user
        turns next to any answer of the chat's topic take activation from it (the restating
        discount spares them) and fill the top 10; what lifts the answers instead costs
        instruction and preference following, whose evidence is those user turns.
    restating_ratio / restating_activation: a speaker whose memories are on average
        restating_ratio times longer than the tersest speaker's (rank.restating; the means
        are read through the speaker tags and cached like the speakers) restates:
        an assistant's answers beside the messages of the person it works with, which repeat
        and elaborate what the person said. The activation a restating speaker's memory
        receives from its neighbours counts x restating_activation; its own relevance counts
        whole. Where speakers talk alike (LoCoMo: friends chatting) nothing changes.
        0.5: BEAM dev recall@10 64.9% -> 66.9% (same-run vector 58.0%; event ordering 18.7 ->
        26.7, instruction following 56.2 -> 61.3, information extraction 73.3% unchanged,
        vector 75.0%), LoCoMo dev unchanged (78.7%; its speakers' means differ by < 1.2x).
        Offline (the top 200 re-ranked; 0.5 so: 66.6-66.9%): 0.3: 66.8% (information
        extraction 70.8%), 0.0: 66.4% (65.8%); a bonus for the terse speaker's memories
        instead (+0.05 to the score): 66.6%, information extraction 68.3% (the assistant's
        answer is the evidence there); sparing the activation that comes over conversation
        order, or that a seed receives: 66.1%, 65.3%; a stronger length discount of the
        activation instead (weight 2, 3): 65.5%, 65.7% (information extraction 68.3%).
    question_discount: taken off the score of a memory whose content ends in a question mark
        (read with its ranking fields: recall/scores, recall/expand). A question asked in a
        conversation states nothing: what it shares with a question put to recall is the form
        and the topic words it echoes from the other side ("What made you choose them as
        pets?"), which the cosine and the full-text score reward alike; among memories of
        about the same score, the one that tells comes first. Small, because a question can
        be the evidence (BEAM: what the user asked, when). 0.02: LoCoMo dev recall@10
        79.5% -> 80.1%, multi-hop 54.8 -> 55.3, temporal 87.8, open-domain 62.7, single-hop
        86.5 -> 87.4; BEAM dev 67.3% unchanged (same-run vector 58.0%; knowledge update 96.2
        -> 97.5, event ordering 24.2 -> 23.2, summarization 15.8 -> 15.3, vector 84.2, 11.1,
        13.0). Offline (the top 200 of every dev question re-ranked, which the full runs
        matched exactly: the discount is in the ranking only) 0.01: LoCoMo 79.7%, 55.7%;
        0.03: 80.0%, 55.1%, BEAM 67.0% (event ordering 21.5); 0.1: LoCoMo 80.3%, 55.4%,
        BEAM 64.5% (temporal 87.5, contradiction 83.2). Any '?' in the memory instead of a
        final one: LoCoMo 79.9% at 0.02 and 0.05 (temporal 86.8 at 0.05).
    unframe: the frame that reports a turn ("did I mention", "when did I say", "I told you";
        `cues.unframe`) leaves the text that is embedded and searched, as a named speaker does.
        A question about a conversation says how the fact came up; those words match every
        turn that reports something ("as you mentioned, ...") and pull the question's
        embedding toward them. True: BEAM dev recall@10 67.4% -> 67.9% (bench/locomo.py's
        `framed` ablation; information extraction 77.5 -> 82.5 against vector search's 77.5:
        "What profession did I mention I work in?" finds its turn; event ordering 21.5 ->
        21.1, vector 11.1), LoCoMo dev unchanged (80.5%, 55.8% multi-hop in both rows; 5 of
        its 760 questions hold such a frame, 36 of BEAM's 179). Offline: the frame taken out
        of the full-text query only: no change on either; the verbs of advice too ("did you
        recommend", which the addressee cue reads): BEAM 67.7%, preference following 87.7 ->
        86.0. Turning every question into a statement ("What do kids like?" -> "kids like")
        for the embedding: LoCoMo 78.6%, BEAM 66.5%, not taken.
    anchors: the anchors candidates that score best by their own relevance and cues (the
        score without the activation expansion brings: `rank.anchors`) are kept inside the
        first k: activation may reorder the top k, but not push out what the question itself
        finds best. A guard where expansion misleads (a lone answer among seeds that lift each
        other). 2: BEAM dev summarization 14.9 -> 15.3 (`no-anchors` ablation), every other
        category and LoCoMo dev unchanged. Offline (an earlier form that could let one anchor
        push out another): 3: LoCoMo temporal 88.8 -> 88.5; 5: multi-hop 56.1 -> 55.3, BEAM
        instruction following 61.3 -> 56.2.
    standing_rules / standing_floor / standing_limit: standing instructions (`write.standing`:
        "Always include version numbers when I ask about software dependencies") are matched
        by their condition ("software dependencies") against the context, before feedback
        moves it; the standing_rules best whose cosine reaches standing_floor seed and are kept
        inside the top k (`rank.kept`, before the anchors), as a negative rule that triggers is
        always surfaced. At most standing_limit instructions of a namespace are read (one
        indexed statement beside the query embedding; conditions embedded once per text).
        1 / 0.4: BEAM dev recall@10 67.9% -> 69.6% (instruction following 61.3 -> 77.5,
        vector search 51.2; knowledge update 97.5 -> 96.2: a question where an instruction took
        the tenth place; no other category moved), LoCoMo dev unchanged (no turn of it is a
        standing instruction). Offline on the kept dev stores: as seeds only, not kept in the
        top k: 67.9%, no change (their relevance to the whole question is low: that is the
        point); 2 rules: 69.2% (information extraction 82.5 -> 80.0, contradiction 88.2 ->
        87.2); floor 0.35: as 0.4; 0.45: 69.0% (instruction following 72.5).
    recency_boost / recency_hours: score x (1 + boost * e^(-hours since last access / hours)).
    min_relevance: a context whose best relevance is below this is logged as a gap.
    topic_shift: a session's surfaced set is cleared when the new context's similarity to the
        previous one falls below this.
    resurface_top: an already surfaced memory is shown again only if it ranks this high.
    """

    vector_seeds: int = 10
    min_seed_cosine: float = 0.4
    fulltext_seeds: int = 10
    speaker_seeds: int = 3
    vocabulary_seeds: int = 20
    vocabulary_floor: float = 0.35
    vocabulary_words: int = 40
    vocabulary_per_word: int = 50
    fulltext_hits: int = 50
    fulltext_oversample: int = 2
    fulltext_max_candidates: int = 10_000
    forms_below: int = 5
    context_weight: float = 0.25
    df_share: float = 0.2
    alpha: float = 0.8
    prf_weight: float = 0.3
    prf_depth: int = 3
    prf_search: bool = False
    depth: int = 2
    hop_decay: float = 0.7
    fan_out: int = 10
    frontier: int = 20
    later_frontier: int = 15
    has_tag_weight: float = 0.8
    in_cluster_weight: float = 0.6
    supersedes_weight: float = 0.9
    other_weight: float = 0.3
    max_tag_degree: int = 10
    max_cluster_size: int = 20
    edge_floor: float = 0.2
    activation_weight: float = 0.6
    speaker_weight: float = 0.3
    addressee_weight: float = 0.1
    time_weight: float = 0.1
    time_slack_days: int = 31
    importance_weight: float = 0.1
    length_weight: float = 1.0
    fulltext_length_weight: float = 1.5
    long_memory_chars: int = 1000
    restating_ratio: float = 2.0
    restating_activation: float = 0.5
    question_discount: float = 0.02
    unframe: bool = True
    anchors: int = 2
    standing_rules: int = 1
    standing_floor: float = 0.4
    standing_limit: int = 500
    recency_boost: float = 0.5
    recency_hours: float = 24.0
    min_relevance: float = 0.35
    topic_shift: float = 0.3
    resurface_top: int = 3
    negative_rules_limit: int = 500

    def __post_init__(self) -> None:
        if not 0 <= self.depth <= 4:
            raise ValueError("CascadeConfig.depth must be within 0..4")
        if not 0.0 <= self.alpha <= 1.0:
            raise ValueError("CascadeConfig.alpha must be within 0..1")
        if self.anchors < 0:
            raise ValueError("CascadeConfig.anchors must be 0 or more")


DEFAULT_CASCADE = CascadeConfig()
# The cascade without the vocabulary seeds (what they add: bench/locomo.py's `no-vocabulary`).
NO_VOCABULARY = CascadeConfig(vocabulary_seeds=0)
# The same cascade without graph expansion or query cues: what plain hybrid search gives.
SEEDS_ONLY = CascadeConfig(
    depth=0, speaker_weight=0.0, addressee_weight=0.0, time_weight=0.0, prf_weight=0.0,
    standing_rules=0,
)  # fmt: skip
