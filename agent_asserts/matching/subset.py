"""``M.subset_of(mapping)``: the actual mapping is a subset of the expected one.

The mirror of the default partial match: there every *expected* key must be present in the
actual mapping; here every *actual* key must appear in the expected mapping, with a value that
matches the expected one under the default rules. Expected keys the actual mapping lacks are
fine, so ``{}`` is a subset of anything.

>>> from agent_asserts.matching import M
>>> M.subset_of({"id": "A1", "reason": "dup"}).matches({"id": "A1"})
True
>>> [str(m) for m in M.subset_of({"id": "A1"}).explain({"id": "A1", "amount": 5})]
['$.amount: unexpected key (got 5); allowed keys: id']
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import attrs

from agent_asserts.matching.base import ROOT, Matcher, Mismatch, key_path
from agent_asserts.matching.data import value_to_data
from agent_asserts.matching.depth import within_depth
from agent_asserts.matching.structural import explain_value, match_value
from agent_asserts.matching.values import data_key, render


def _validate_mapping(_: Any, __: Any, value: Any) -> None:
    if not isinstance(value, Mapping):
        raise TypeError(f"M.subset_of() takes a mapping (got {render(value)})")
    within_depth(_, __, value)


@attrs.frozen(repr=False)
class SubsetOfMatcher(Matcher):
    """``M.subset_of(mapping)``: every actual key is one of ``mapping``'s, its value matching.

    >>> from agent_asserts.matching import M
    >>> M.subset_of({"a": 1}).matches({"a": 2}), M.subset_of({"a": 1}).matches("x")
    (False, False)
    """

    value: Mapping[Any, Any] = attrs.field(eq=data_key, validator=_validate_mapping)

    def matches(self, actual: Any) -> bool:
        if not isinstance(actual, Mapping):
            return False
        expected = self.value
        for key, got in actual.items():
            if key not in expected or not match_value(expected[key], got):
                return False
        return True

    def explain(self, actual: Any, path: str = ROOT) -> list[Mismatch]:
        if not isinstance(actual, Mapping):
            return [Mismatch(path, self, actual, f"expected a mapping, got {render(actual)}")]
        expected = self.value
        out: list[Mismatch] = []
        allowed = ", ".join(str(k) for k in expected) or "none"
        for key, got in actual.items():
            child = key_path(path, key)
            if key not in expected:
                reason = f"unexpected key (got {render(got)}); allowed keys: {allowed}"
                out.append(Mismatch(child, MISSING_KEY, got, reason))
            else:
                out.extend(explain_value(expected[key], got, child))
        return out

    def describe(self) -> str:
        return f"a subset of {render(self.value)}"

    def to_data(self) -> Any:
        return {"$subset_of": value_to_data(self.value)}

    def __repr__(self) -> str:
        return f"M.subset_of({self.value!r})"


MISSING_KEY = "<no such expected key>"
"""The ``expected`` of a mismatch for an actual key the expected mapping does not have."""

__all__ = ["SubsetOfMatcher"]
