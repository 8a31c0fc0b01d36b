"""What a memory is: the file model, frontmatter, the MEMORY.md index, paths and limits.

Owns the one definition of a memory and of a file that may be synced (`safety`),
Claude Code's limits and directory layout. Pure: imports only the standard library,
third-party parsers, and `memsync.errors`; never config, fsutil, git or anything above.
"""
