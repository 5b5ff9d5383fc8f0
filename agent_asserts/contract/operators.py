"""The operators of ``require``, in two tables: each ``op``, and each ``matcher`` of
``op: matcher``, mapped to how it reads in a message and how it judges the items of ``left``.

Adding an operator is adding one row here (and its rules in
:mod:`agent_asserts.contract.validate`); the validator takes the names it accepts, and its
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
from typing import TYPE_CHECKING, Any, Final

import attrs

from agent_asserts.contract.bindings import Bound
from agent_asserts.contract.durations import format_within
from agent_asserts.contract.judged import judged_verdicts
from agent_asserts.contract.ordering import follows_within, has_matching, precedes
from agent_asserts.contract.relations import (
    Tester,
    custom_tester,
    matcher_tester,
    schema_tester,
)
from agent_asserts.contract.verdicts import ItemVerdict
from agent_asserts.matching import M, as_matcher, render

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


@attrs.frozen
class Operator:
    """One operator: ``describe(req, right)`` words the relation for messages; ``verdicts``
    judges the items (None for ``count_at_most``, which counts the whole selection)."""

    describe: Callable[[Requirement, Any], str]
    verdicts: Verdicts | None


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
        "exact": Operator(
            lambda req, right: f"matches {render(right)} (exact)",
            each_item(lambda req, right: matcher_tester(M.exact(right))),
        ),
        "structural": Operator(
            lambda req, right: f"matches {render(right)} (structural)",
            each_item(lambda req, right: matcher_tester(as_matcher(right))),
        ),
        "semantic": Operator(lambda req, right: f"satisfies {right!r} (judged, semantic)", _judged),
        "grounded_semantic": Operator(
            lambda req, right: f"satisfies {right!r} (judged, grounded_semantic)", _judged
        ),
        "custom": Operator(
            lambda req, right: f"satisfies the custom matcher {req.custom!r}",
            each_item(lambda req, right: custom_tester(req.custom or "", right)),
        ),
    }
)
"""``op: matcher`` by its ``matcher``: exact (strict equality), structural (the ``$``-operator
matchers), the judged ones, and a custom matcher registered with ``register_matcher``."""

OPERATORS: Final[Mapping[str, Operator]] = MappingProxyType(
    {
        "equals": Operator(
            lambda req, right: f"equals {render(right)}",
            each_item(lambda req, right: matcher_tester(M.exact(right))),
        ),
        "contains": Operator(
            lambda req, right: f"contains {render(right)}",
            each_item(lambda req, right: matcher_tester(M.contains(right))),
        ),
        "matches_schema": Operator(
            lambda req, right: "matches the schema",
            each_item(lambda req, right: schema_tester(right)),
        ),
        "count_at_most": Operator(lambda req, right: f"has at most {right} items", None),
        "precedes": Operator(
            lambda req, right: f"occurs before some {req.right!r} item{_same(req)}",
            lambda r: precedes(r.left, r.other, r.req.on),
        ),
        "follows_within": Operator(
            lambda req, right: f"is followed by some {req.right!r} item{_same(req)}{_within(req)}",
            lambda r: follows_within(r.left, r.other, r.req.on, r.req.within or 0.0),
        ),
        "has_matching": Operator(
            lambda req, right: f"has a matching {req.right!r} item{_on(req)}{_within(req)}",
            lambda r: has_matching(r.left, r.other, r.req.on, r.req.within),
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
    "Verdicts",
    "each_item",
    "operator_of",
]
