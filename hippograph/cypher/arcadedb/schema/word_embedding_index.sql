-- A namespace's vocabulary (graph/vocabulary.py): each word's embedding, declared then
-- indexed, like a memory's.
CREATE VERTEX TYPE Word IF NOT EXISTS;
CREATE PROPERTY Word.embedding IF NOT EXISTS ARRAY_OF_FLOATS;
CREATE INDEX IF NOT EXISTS ON Word (embedding) LSM_VECTOR
METADATA {"dimensions": {{dimensions}}, "similarity": "COSINE"}
