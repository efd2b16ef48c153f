// Which of the words $uids (namespace|word) the vocabulary holds already.
UNWIND $uids AS uid
MATCH (w:Word {uid: uid})
RETURN w.uid AS uid
