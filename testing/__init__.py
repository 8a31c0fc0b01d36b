"""Test helpers shared by the test suites (fixtures' building blocks, never product code)."""
