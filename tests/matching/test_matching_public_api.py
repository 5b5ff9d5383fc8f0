"""The public names of agent_asserts.matching."""

from __future__ import annotations

import agent_asserts.matching as matching

EXPECTED = {
    "M", "Matcher", "Mismatch", "matches", "explain", "as_matcher", "render", "strict_equal",
    "similarity", "Count", "ANY", "from_data", "value_to_data", "OperatorError", "MatcherError",
    "OPERATORS",
}  # fmt: skip


def test_all_is_exactly_the_public_names() -> None:
    assert set(matching.__all__) == EXPECTED
    for name in EXPECTED:
        assert hasattr(matching, name)


def test_error_types() -> None:
    assert issubclass(matching.OperatorError, ValueError)
    assert issubclass(matching.MatcherError, Exception)
    assert not issubclass(matching.MatcherError, ValueError)
