"""Shared test support for memsync's test suite (generators, fixtures)."""
