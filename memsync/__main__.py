"""`python -m memsync`."""

from memsync.cli import main

if __name__ == "__main__":
    main()
