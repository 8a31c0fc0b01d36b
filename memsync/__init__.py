"""memsync: Claude Code memory in git, across machines and teams."""

__version__ = "0.1.0"
