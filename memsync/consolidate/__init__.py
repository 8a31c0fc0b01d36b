"""The consolidation pass: duplicates, relative dates, index fitting, and its report.

May import model, fsutil, git and merge; never check, sync, team or cli.
"""
