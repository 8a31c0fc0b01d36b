"""Helpers shared by tests and benchmarks (fixtures, corpora, harnesses)."""
