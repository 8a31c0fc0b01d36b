"""The filesystem boundary: the one atomic writer and safe reads of regular files.

May import `memsync.model` and `memsync.errors`; never git, merge or anything above.
"""
