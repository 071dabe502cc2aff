"""``python -m rummisolve`` is the ``rummisolve`` command."""

from rummisolve.cli import main

raise SystemExit(main())
