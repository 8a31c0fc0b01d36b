"""Test helpers shared by memsync's test suites (like pre-commit's `testing/`); never product code.

Plain functions and classes, no fixtures: `tests/conftest.py` wraps them in fixtures, and test
modules import them from here instead of from each other. `gitrepo` runs git for a test and
makes bare remotes; `machines` simulates computers with their own HOME, Claude and memsync
directories; `memories` writes memory files; `fakegithub` serves the GitHub REST endpoints
memsync calls from a local HTTP server; `claude_client` installs and runs the real Claude Code
binary and `messages_api` is its loopback stand-in for the Messages API.
"""
