CREATE VECTOR INDEX word_embedding IF NOT EXISTS
FOR (w:Word) ON w.embedding
OPTIONS {indexConfig: {`vector.dimensions`: {{dimensions}}, `vector.similarity_function`: 'cosine'}}
