-- The full-text index of stores written before words were keyed by namespace: nothing reads it.
DROP INDEX `Memory[content]` IF EXISTS
