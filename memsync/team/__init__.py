"""Team workflows: review, GitHub pull requests, the repository scaffold, Claude Code's
hook settings, promote and init.

May import every layer below; never cli.
"""
