CREATE CONSTRAINT core_block_namespace_unique IF NOT EXISTS
FOR (b:CoreBlock) REQUIRE b.namespace IS UNIQUE
