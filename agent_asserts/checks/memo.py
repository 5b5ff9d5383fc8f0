"""The construction cache of the fluent path (:mod:`agent_asserts.selectors.base`, which
caches selectors too): a fluent call repeated with the same plain arguments reuses its check.

>>> from agent_asserts.checks.cost import StepCount
>>> built(StepCount, 3) is built(StepCount, 3)
True
"""

from __future__ import annotations

from agent_asserts.selectors.base import built

__all__ = ["built"]
