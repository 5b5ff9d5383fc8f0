"""The matcher vocabulary: default comparison rules, ``M.*`` matchers, ``Count``, similarity.

>>> from agent_asserts.matching import M, matches, explain
>>> matches({"amount": 42, "reason": M.regex("dup.*")}, {"amount": 42, "reason": "duplicate"})
True
>>> for m in explain({"amount": 42, "reason": M.regex("dup.*")}, {"amount": 40, "reason": "other"}):
...     print(m)
$.amount: expected 42, got 40
$.reason: expected a match of 'dup.*', got 'other'
"""

from agent_asserts.matching.base import Matcher, MatcherError, Mismatch, value_to_data
from agent_asserts.matching.count import Count
from agent_asserts.matching.operators import ANY, OPERATORS, M, OperatorError, from_data
from agent_asserts.matching.structural import as_matcher, explain, matches
from agent_asserts.matching.values import render, similarity, strict_equal

__all__ = [
    "ANY",
    "OPERATORS",
    "Count",
    "M",
    "Matcher",
    "MatcherError",
    "Mismatch",
    "OperatorError",
    "as_matcher",
    "explain",
    "from_data",
    "matches",
    "render",
    "similarity",
    "strict_equal",
    "value_to_data",
]
