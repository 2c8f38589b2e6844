"""``python -m katra``: the command line (see katra.cli)."""
import sys

from katra.cli import main

if __name__ == "__main__":
    sys.exit(main())
