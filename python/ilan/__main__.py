"""`python -m ilan` runs the ilan command."""

import sys

from .cli import main

sys.exit(main())
