"""``python -m rules``: see :mod:`rules.cli`."""

from __future__ import annotations

from rules.cli import main

raise SystemExit(main())
