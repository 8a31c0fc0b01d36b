"""The merge engine: pure three-way merges of fields, lines and words, indexes and trees.

No I/O and no git: inputs and outputs are bytes and typed values. May import
`memsync.model` and `memsync.errors` only.
"""
