"""Sync: stores and their clones, project bindings, the manifest, live files, the lock,
and the Claude Code hook protocol for `pull --hook`/`push --hook`.

May import every layer below (model, fsutil, git, config, merge, consolidate, check);
never team or cli.
"""
