"""Stress and latency harness for memsync sync: remotes, faults, crash injection, benchmarks."""
