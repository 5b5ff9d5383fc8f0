"""``python -m agent_asserts``: the ``agent-asserts`` command (see :mod:`agent_asserts.cli`)."""

from __future__ import annotations

import sys

from agent_asserts.cli import main

if __name__ == "__main__":
    sys.exit(main())
