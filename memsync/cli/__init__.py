"""The command line: parse options, call typed core functions, render with rich.

The only package that imports typer or rich. May import every layer.
"""
