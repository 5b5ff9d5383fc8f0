"""The operators of ``require``, in two tables: each ``op``, and each ``matcher`` of
``op: matcher``, mapped to how it reads in a message and how it judges the items of ``left``.

Adding an operator is adding one row here (and its rules in
:mod:`agent_asserts.contract.problems`); the validator takes the names it accepts, and its
did-you-mean suggestions, from the tables' keys.

>>> from agent_asserts.contract.model import Requirement
>>> req = Requirement("has_matching", "m", "a", on=("operation_ref",), within=2)
>>> operator_of(req).describe(req, "a")
"has a matching 'a' item on operation_ref within 2s"
>>> list(MATCHER_OPERATORS)
['exact', 'structural', 'semantic', 'grounded_semantic', 'custom']
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, Final, Literal

import attrs

from agent_asserts.contract.bindings import Bound
from agent_asserts.contract.grammar import format_within
from agent_asserts.contract.relations import (
    Tester,
    custom_tester,
    follows_within,
    has_matching,
    judged_verdicts,
    matcher_tester,
    precedes,
    schema_tester,
)
from agent_asserts.contract.verdicts import ItemVerdict
from agent_asserts.matching import M, Matcher, as_matcher, render

if TYPE_CHECKING:
    from agent_asserts.contract.model import Requirement
    from agent_asserts.judges import Judge


@attrs.frozen
class Relating:
    """What an operator judges: the requirement, its bound names, the value of ``right``
    and the judge; ``evaluator`` collects what a judge reports of itself."""

    req: Requirement
    bound: Mapping[str, Bound]
    right: Any
    judge: Judge | None = None
    evaluator: dict[str, Any] = attrs.field(factory=dict)

    @property
    def left(self) -> Bound:
        """The selection (or value) of ``left``."""
        return self.bound[self.req.left]

    @property
    def other(self) -> Bound:
        """The selection named by ``right`` (relations between two selections)."""
        return self.bound[self.req.right]


Verdicts = Callable[[Relating], list[ItemVerdict]]
"""One verdict per item of ``left``."""


RightKind = Literal["value", "schema", "criterion", "binding", "count"]
"""What ``right`` holds: a value (its ``$``-operators become matchers), a JSON Schema or a
judge's criterion (both kept as written), the name of another binding (a relation between two
selections), or the most items a selection may have."""


@attrs.frozen
class Operator:
    """One operator: ``describe(req, right)`` words the relation for messages; ``verdicts``
    judges the items (None for ``count_at_most``, which counts the whole selection); ``right``
    says what ``right`` holds; ``evaluator_type`` is the result's ``evaluator.type``.

    >>> OPERATORS["count_at_most"].right, MATCHER_OPERATORS["custom"].evaluator_type
    ('count', 'custom')
    """

    describe: Callable[[Requirement, Any], str]
    verdicts: Verdicts | None
    right: RightKind = "value"
    evaluator_type: str = "deterministic"
    needs_right: bool = True
    """False when ``right`` may be left out (a custom matcher may need no expected value)."""
    matcher: Callable[[Any], Matcher] | None = None
    """For a value relation a matcher decides: the matcher of ``right`` every item is tested
    with (its ``verdicts`` explain each item with it)."""

    def expected(self, req: Requirement, right: Any, description: str) -> Any:
        """The outcome's ``expected``: the value of ``right``, the count, or (for a relation
        between two selections) the relation in words."""
        if self.right == "count":
            return req.right
        return description if self.right == "binding" else right


def each_item(tester: Callable[[Requirement, Any], Tester]) -> Verdicts:
    """The verdicts of a value relation: one test, built once, applied to every left item.

    >>> from agent_asserts.contract.model import Requirement
    >>> left = Bound("m", False, ("A1", "B7"), ("e1", "e2"), (None, None), (0, 1), (), 2)
    >>> verdicts = each_item(lambda req, right: matcher_tester(M.exact(right)))
    >>> [v.ok for v in verdicts(Relating(Requirement("equals", "m", "A1"), {"m": left}, "A1"))]
    [True, False]
    """

    def verdicts(r: Relating) -> list[ItemVerdict]:
        test = tester(r.req, r.right)
        left = r.left
        return [test(form, label) for form, label in zip(left.forms(), left.labels, strict=True)]

    return verdicts


def matched_by(
    describe: Callable[[Requirement, Any], str], matcher: Callable[[Any], Matcher]
) -> Operator:
    """The row of a value relation decided by ``matcher(right)`` for every item of ``left``.

    >>> from agent_asserts.contract.model import Requirement
    >>> row = matched_by(lambda req, right: f"equals {right!r}", M.exact)
    >>> row.matcher("A1").matches("A1"), row.describe(Requirement("equals", "m", "A1"), "A1")
    (True, "equals 'A1'")
    """
    return Operator(
        describe, each_item(lambda req, right: matcher_tester(matcher(right))), matcher=matcher
    )


def _judged(r: Relating) -> list[ItemVerdict]:
    grounding = {name: r.bound[name] for name in r.req.grounding}
    verdicts, info = judged_verdicts(r.req, r.left, grounding, r.judge)
    r.evaluator.update(info)
    return verdicts


def _same(req: Requirement) -> str:
    return f" with the same {', '.join(req.on)}" if req.on else ""


def _within(req: Requirement) -> str:
    return "" if req.within is None else f" within {format_within(req.within)}"


def _on(req: Requirement) -> str:
    return f" on {', '.join(req.on)}" if req.on else ""


MATCHER_OPERATORS: Final[Mapping[str, Operator]] = MappingProxyType(
    {
        "exact": matched_by(lambda req, right: f"matches {render(right)} (exact)", M.exact),
        "structural": matched_by(
            lambda req, right: f"matches {render(right)} (structural)", as_matcher
        ),
        "semantic": Operator(
            lambda req, right: f"satisfies {right!r} (judged, semantic)",
            _judged,
            right="criterion",
            evaluator_type="semantic",
        ),
        "grounded_semantic": Operator(
            lambda req, right: f"satisfies {right!r} (judged, grounded_semantic)",
            _judged,
            right="criterion",
            evaluator_type="semantic",
        ),
        "custom": Operator(
            lambda req, right: f"satisfies the custom matcher {req.custom!r}",
            each_item(lambda req, right: custom_tester(req.custom or "", right)),
            evaluator_type="custom",
            needs_right=False,
        ),
    }
)
"""``op: matcher`` by its ``matcher``: exact (strict equality), structural (the ``$``-operator
matchers), the judged ones, and a custom matcher registered with ``register_matcher``."""

OPERATORS: Final[Mapping[str, Operator]] = MappingProxyType(
    {
        "equals": matched_by(lambda req, right: f"equals {render(right)}", M.exact),
        "contains": matched_by(lambda req, right: f"contains {render(right)}", M.contains),
        "matches_schema": Operator(
            lambda req, right: "matches the schema",
            each_item(lambda req, right: schema_tester(right)),
            right="schema",
        ),
        "count_at_most": Operator(
            lambda req, right: f"has at most {right} items", None, right="count"
        ),
        "precedes": Operator(
            lambda req, right: f"occurs before some {req.right!r} item{_same(req)}",
            lambda r: precedes(r.left, r.other, r.req.on),
            right="binding",
        ),
        "follows_within": Operator(
            lambda req, right: f"is followed by some {req.right!r} item{_same(req)}{_within(req)}",
            lambda r: follows_within(r.left, r.other, r.req.on, r.req.within or 0.0),
            right="binding",
        ),
        "has_matching": Operator(
            lambda req, right: f"has a matching {req.right!r} item{_on(req)}{_within(req)}",
            lambda r: has_matching(r.left, r.other, r.req.on, r.req.within),
            right="binding",
        ),
        "matcher": Operator(
            lambda req, right: MATCHER_OPERATORS[req.matcher or ""].describe(req, right),
            lambda r: _matcher_verdicts(r),
        ),
    }
)
"""Every ``op`` of ``require``, in the order messages list them."""


def _matcher_verdicts(r: Relating) -> list[ItemVerdict]:
    verdicts = MATCHER_OPERATORS[r.req.matcher or ""].verdicts
    assert verdicts is not None  # every matcher judges item by item
    return verdicts(r)


def row_of(op: Any, matcher: Any = None) -> Operator | None:
    """The row of ``op`` (of ``matcher`` for ``op: matcher``), or None for a name the tables
    do not have (the validator reports it).

    >>> row_of("precedes").right, row_of("matcher", "semantic").right, row_of("equal")
    ('binding', 'criterion', None)
    """
    if op == "matcher":
        return MATCHER_OPERATORS.get(matcher) if isinstance(matcher, str) else None
    return OPERATORS.get(op) if isinstance(op, str) else None


def operator_of(req: Requirement) -> Operator:
    """The operator of a (validated) requirement: its ``op``'s, or its ``matcher``'s for
    ``op: matcher``.

    >>> from agent_asserts.contract.model import Requirement
    >>> req = Requirement("matcher", "m", "x", matcher="custom", custom="f")
    >>> operator_of(req) is MATCHER_OPERATORS["custom"]
    True
    """
    if req.op == "matcher":
        return MATCHER_OPERATORS[req.matcher or ""]
    return OPERATORS[req.op]


__all__ = [
    "MATCHER_OPERATORS",
    "OPERATORS",
    "Operator",
    "Relating",
    "RightKind",
    "Verdicts",
    "each_item",
    "matched_by",
    "operator_of",
    "row_of",
]
