"""The pieces every native entry reader shares: the methods a suite file may name (from the
check registry and ``VALUE_CHECKS``), the sibling keys beside them, and building a check.

:mod:`agent_asserts.loaders.native_entries` reads check entries and
:mod:`agent_asserts.loaders.native_expect` the ``expect:`` entry with these; the native writer
(:mod:`agent_asserts.loaders.native_data`) compacts entries with the same signatures.

>>> sorted(set(check_signatures()) & {"called_tool", "max_steps"})
['called_tool', 'max_steps']
>>> "includes" in expect_signatures(), SIBLINGS
(True, ('severity', 'at_least', 'label', 'name'))
"""

from __future__ import annotations

import functools
from typing import Any

from agent_asserts.checks.data import EXPECT_SOURCES, build_check, expect_signatures
from agent_asserts.checks.expectations import VALUE_CHECKS
from agent_asserts.checks.registry import all_checks, registry_version
from agent_asserts.checks.signatures import Signature, signature
from agent_asserts.loaders.collector import ProblemCollector
from agent_asserts.loaders.nodes import MappingNode, Node, has_invalid
from agent_asserts.loaders.operators import report_exception

SIBLINGS = ("severity", "at_least", "label", "name")
"""Keys beside a check method (inside ``expect:`` for value expectations)."""


def check_signatures() -> dict[str, Signature]:
    """Every registered check method that can be written in a suite file, by name (as the
    registry stands now: a check registered after a first load is seen)."""
    return _check_signatures(registry_version())


@functools.lru_cache(maxsize=1)
def _check_signatures(version: int) -> dict[str, Signature]:
    sigs = {name: signature(cls) for name, cls in all_checks().items()}
    return {name: sig for name, sig in sigs.items() if sig.yaml_ok}


def python_only_methods() -> frozenset[str]:
    """Registered methods that need a Python callable (``events_satisfy``…)."""
    return _python_only_methods(registry_version())


@functools.lru_cache(maxsize=1)
def _python_only_methods(version: int) -> frozenset[str]:
    every = {**all_checks(), **VALUE_CHECKS}
    return frozenset(name for name, cls in every.items() if not signature(cls).yaml_ok)


def read_siblings(entry: MappingNode, problems: ProblemCollector) -> dict[str, Any]:
    """``severity``, ``at_least`` (→ threshold), ``label`` and ``name`` of an entry."""
    out: dict[str, Any] = {}
    if "severity" in entry.items:
        out["severity"] = problems.expect_choice(entry.items["severity"], ("gate", "soft"))
    if "at_least" in entry.items:
        node = entry.items["at_least"]
        value = problems.expect_number(node)
        if value is not None and not 0.0 <= value <= 1.0:
            problems.add(node, f"must be between 0 and 1 (got {value})")
        out["threshold"] = None if value is None else float(value)
    if "label" in entry.items:
        out["label"] = problems.expect_str(entry.items["label"])
    if "name" in entry.items:
        out["name"] = problems.expect_str(entry.items["name"], non_empty=True)
    return out


def construct(
    sig: Signature, kwargs: dict[str, Any], where: Node, problems: ProblemCollector
) -> Any:
    """Build the check with :func:`~agent_asserts.checks.data.build_check` (as the converter
    of :mod:`agent_asserts.serialization` does); a ``TypeError``/``ValueError`` it raises
    becomes a problem."""
    try:
        return build_check(sig, kwargs)
    except (TypeError, ValueError) as exc:
        report_exception(exc, where, problems)
        return None


__all__ = [
    "EXPECT_SOURCES",
    "SIBLINGS",
    "check_signatures",
    "construct",
    "expect_signatures",
    "has_invalid",
    "python_only_methods",
    "read_siblings",
]
