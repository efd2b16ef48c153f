// One nearest-neighbour search after a bulk load: the embedded engine builds its vector graph
// for what was loaded at the first search (seconds per thousand memories), so the import pays
// for it rather than the first recall, which every recall behind it would wait on. The
// vocabulary job asks it of the word index ($vector_index = the dialect's word_index) after
// adding words.
CALL db.index.vector.queryNodes($vector_index, 1, $embedding) YIELD node
RETURN count(node) AS found
