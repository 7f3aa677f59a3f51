"""`python -m ui.cli ...`: the `whichone` command without its console script."""

import sys

from ui.cli import app

if __name__ == "__main__":  # pragma: no cover
    sys.exit(app())
