"""Test-suite settings: property tests have no per-example deadline.

CI runs on a shared 2-core machine under ``pytest -n 2``; a slow moment there must not turn a
correct property test into a ``DeadlineExceeded`` failure. The number of examples is unchanged.
"""

from __future__ import annotations

from hypothesis import settings

settings.register_profile("agent_asserts", deadline=None, print_blob=True)
settings.load_profile("agent_asserts")
