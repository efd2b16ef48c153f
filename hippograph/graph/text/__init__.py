"""Text analysis, pure functions over strings that every layer uses: the words of the full-text
index and its keyed queries (``fulltext``), the regular forms of a word (``forms``), the
privacy filter (``privacy``), tag names in canonical form (``tags``), the word lists they
share (``stopwords``) and which memories are standing instructions (``standing``).

May import only ``text`` and the root foundations ``graph.errors``, ``graph.model`` and
``graph.clock``: nothing that reads or writes the store.
"""
