"""The filesystem boundary: the one atomic writer, safe reads of regular files, the directory scan.

May import `memsync.model` and `memsync.errors`; never git, merge or anything above.
"""
