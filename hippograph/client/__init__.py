"""A typed Python client of the Hippograph GraphQL API."""
