"""Validation: the SPEC section 6 rules, the secret scanner, and check's report formats.

May import model, fsutil, git, config (a store's scope), merge and consolidate (the date
grammar, so `check` flags exactly what `consolidate` converts); never sync, team or cli.
"""
