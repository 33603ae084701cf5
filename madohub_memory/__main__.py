"""Allow ``python -m madohub_memory``."""

from madohub_memory.cli import main

raise SystemExit(main())
