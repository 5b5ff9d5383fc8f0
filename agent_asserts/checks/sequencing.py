"""Ordered subsequences: ``tool_order`` and ``sequencing`` (and, in ``events.py``,
``event_order``), all served by one function, :func:`find_in_order`.

The search is earliest-match greedy: each step takes the first matching event strictly after
the event of the previous step. For "is there an ordered subsequence" greedy is optimal: if
any assignment exists, the earliest-match one does. ``contiguous`` (``tool_order`` only)
requires the steps to be consecutive tool calls.

>>> from agent_asserts.record import TrialRecord
>>> rec = TrialRecord.builder().tool("search").tool("lookup").tool("refund").build()
>>> ToolOrder("search", "refund").evaluate(rec).message
'found 2 steps in order: e0, e2'
>>> ToolOrder("search", "refund", contiguous=True).evaluate(rec).message
"step 2 'refund' was not found right after e0 (step 1 'search')"
"""

from __future__ import annotations

import bisect
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, ClassVar

import attrs

from agent_asserts._text import LazyText
from agent_asserts.checks import register
from agent_asserts.checks.base import Check, given_fields_first
from agent_asserts.checks.selection import (
    event_ids,
    parallel_note,
    selector_surface,
    tool_call_names,
)
from agent_asserts.matching.values import plural
from agent_asserts.outcome import Outcome, missing_surface
from agent_asserts.selectors import Selector, ToolSelector, as_selector

if TYPE_CHECKING:
    from agent_asserts.record import TrialRecord


@attrs.frozen
class Subsequence:
    """Where the steps of an ordered search were found.

    Attributes:
        positions: Positions (in ``record.events``) of the steps found, in step order.
        missing: Index of the first step not found; None when every step was found.
        parallel: When the missing step matched an event issued in parallel with the previous
            step's event (same ``group_id``, so not after it), that event's position.

    >>> Subsequence((0, 4), None).complete
    True
    """

    positions: tuple[int, ...]
    missing: int | None
    parallel: int | None = None

    @property
    def complete(self) -> bool:
        """True when every step was found.

        >>> Subsequence((0,), missing=1).complete
        False
        """
        return self.missing is None


def find_in_order(
    record: TrialRecord,
    steps: Sequence[Selector],
    *,
    lane: Sequence[int] | None = None,
    within: Sequence[int] | None = None,
) -> Subsequence:
    """Find ``steps`` in order, each strictly after the previous one: an event issued in
    parallel with the previous step's event (same ``group_id``) is not after it.

    Args:
        record: The record to search.
        steps: One selector per step.
        lane: When given, the steps must be consecutive items of this sorted list of positions
            (``record.positions_of_kind("tool_call")`` for contiguous tool calls).
        within: When given, only these positions (sorted) are searched, instead of each
            step's candidates (``tools_within_one_turn`` searches the runs of one turn).

    Returns:
        The positions found; on failure the longest prefix found and the missing step.

    >>> from agent_asserts.record import TrialRecord
    >>> rec = TrialRecord.builder().tool("a").tool("b").tool("a").build()
    >>> find_in_order(rec, [ToolSelector("a"), ToolSelector("a")])
    Subsequence(positions=(0, 2), missing=None, parallel=None)
    >>> find_in_order(rec, [ToolSelector("b"), ToolSelector("b")])
    Subsequence(positions=(1,), missing=1, parallel=None)
    >>> find_in_order(rec, [ToolSelector("a")], within=[1, 2])
    Subsequence(positions=(2,), missing=None, parallel=None)
    """
    if lane is not None:
        return _find_contiguous(record, steps, lane)
    events = record.events
    groups = record.groups
    grouped = bool(groups.group_of)
    found: list[int] = []
    after = -1
    for k, step in enumerate(steps):
        candidates = step.candidates(record) if within is None else within
        start = bisect.bisect_right(candidates, after)
        if not grouped and within is None and step.takes_every_candidate():
            if start == len(candidates):
                return Subsequence(tuple(found), k, None)
            after = candidates[start]
            found.append(after)
            continue
        hit = None
        for j in range(start, len(candidates)):
            p = candidates[j]
            if (not grouped or groups.start(p) > after) and step.matches(events[p]):
                hit = p
                break
        if hit is None:
            parallel = _parallel_match(record, step, candidates, found) if grouped else None
            return Subsequence(tuple(found), k, parallel)
        found.append(hit)
        after = groups.end(hit) if grouped else hit
    return Subsequence(tuple(found), None)


def found_in_order(
    record: TrialRecord, steps: Sequence[Selector]
) -> tuple[Subsequence, tuple[str, ...]]:
    """:func:`find_in_order` and the ids of the events found.

    >>> from agent_asserts.record import TrialRecord
    >>> rec = TrialRecord.builder().tool("a").tool("b").build()
    >>> found_in_order(rec, [ToolSelector("a"), ToolSelector("b")])
    (Subsequence(positions=(0, 1), missing=None, parallel=None), ('e0', 'e1'))
    """
    result = find_in_order(record, steps)
    return result, event_ids(record, result.positions)


def _parallel_match(
    record: TrialRecord, step: Selector, candidates: Sequence[int], found: list[int]
) -> int | None:
    """A candidate matching ``step`` in the group of the last step found, or None."""
    if not found:
        return None
    groups = record.groups
    previous = found[-1]
    low = bisect.bisect_left(candidates, groups.start(previous))
    high = bisect.bisect_right(candidates, groups.end(previous))
    for p in candidates[low:high]:
        if groups.parallel(previous, p) and step.matches(record.events[p]):
            return p
    return None


def _find_contiguous(
    record: TrialRecord, steps: Sequence[Selector], lane: Sequence[int]
) -> Subsequence:
    events = record.events
    groups = record.groups
    best = Subsequence((), 0)
    for start in steps[0].select(record):
        i = bisect.bisect_left(lane, start)
        if i >= len(lane) or lane[i] != start:
            continue
        run = [start]
        parallel = None
        for k in range(1, len(steps)):
            j = i + k
            if j >= len(lane) or not steps[k].matches(events[lane[j]]):
                break
            if not groups.precedes(lane[j - 1], lane[j]):
                parallel = lane[j]
                break
            run.append(lane[j])
        if len(run) == len(steps):
            return Subsequence(tuple(run), None)
        if len(run) > len(best.positions):
            best = Subsequence(tuple(run), len(run), parallel)
    return best


def step_label(step: Selector | str) -> str:
    """How a step is named in messages: ``'refund'`` for a name, the selector's call else.

    >>> step_label("a|b"), step_label(ToolSelector("a", arguments={"x": 1}))
    ("'a|b'", "on.tool('a', arguments={'x': 1})")
    """
    return repr(step) if isinstance(step, str) else step.describe()


def order_outcome(
    record: TrialRecord,
    steps: Sequence[Selector | str],
    result: Subsequence,
    *,
    contiguous: bool = False,
    observed: Any = None,
    ids: tuple[str, ...] | None = None,
) -> Outcome:
    """The outcome of an ordered search: the ids found (``ids``, when the caller has them),
    or which step was missing after what (the steps named by :func:`step_label`, only then).

    >>> from agent_asserts.record import TrialRecord
    >>> rec = TrialRecord.builder().tool("a").build()
    >>> order_outcome(rec, ["a", "b"], Subsequence((0,), 1)).message
    "step 2 'b' was not found after e0 (step 1 'a')"
    """
    if ids is None:
        ids = event_ids(record, result.positions)
    if observed is None:
        observed = list(ids)
    if result.missing is None:
        found = LazyText(_found_text, len(steps), ids)
        return Outcome.of(True, message=found, evidence=ids, observed=observed)
    labels = [step_label(s) for s in steps]
    k = result.missing
    if k == 0:
        text = f"step 1 {labels[0]} was not found"
    else:
        where = "right after" if contiguous else "after"
        text = (
            f"step {k + 1} {labels[k]} was not found {where} {ids[-1]} (step {k} {labels[k - 1]})"
        )
        if result.parallel is not None:
            text += parallel_note(record, result.parallel, result.positions[-1])
    details = {"missing_step": k + 1}
    return Outcome.of(False, message=text, evidence=ids, observed=observed, details=details)


def _found_text(steps: int, ids: tuple[str, ...]) -> str:
    return f"found {plural(steps, 'step')} in order: {', '.join(ids)}"


def _check_steps(method: str, what: str, values: tuple[Any, ...]) -> None:
    if not values:
        raise ValueError(f"{method}() needs at least one {what}: a check that checks nothing")


@register
@attrs.frozen(init=False, slots=False, repr=False, eq=False)
class ToolOrder(Check):
    """The named tools were called in this order (other calls may come between).

    A name may be ``"a|b"`` (either tool). With ``contiguous=True`` the names must be
    consecutive tool calls. ``tool_order()`` without names is a ``ValueError``.

    >>> from agent_asserts.record import TrialRecord
    >>> rec = TrialRecord.builder().tool("a").build()
    >>> ToolOrder("a", "a").evaluate(rec).message
    "step 2 'a' was not found after e0 (step 1 'a')"
    """

    names: tuple[str, ...]
    contiguous: bool = False
    _steps: tuple[ToolSelector, ...] = attrs.field(init=False, eq=False, repr=False)

    method: ClassVar[str] = "tool_order"
    varargs: ClassVar[str | None] = "names"

    def __init__(self, *names: str, contiguous: bool = False) -> None:
        self.__attrs_init__(names=tuple(names), contiguous=contiguous)

    @_steps.default
    @given_fields_first
    def _select_steps(self) -> tuple[ToolSelector, ...]:
        _check_steps("tool_order", "tool name", self.names)
        for name in self.names:
            if not isinstance(name, str):
                raise TypeError(f"'names' must be tool names (got {name!r})")
        if not isinstance(self.contiguous, bool):
            raise TypeError(f"'contiguous' must be a bool (got {self.contiguous!r})")
        return tuple([ToolSelector(n) for n in self.names])

    def evaluate(self, record: TrialRecord) -> Outcome:
        # surfaces None: every kind counts as recorded (missing_surface's own first test)
        invalid = None if record.surfaces is None else missing_surface(record, "tool_call")
        if invalid is not None:
            return invalid
        ids = None
        if self.contiguous:
            result = find_in_order(record, self._steps, lane=record.positions_of_kind("tool_call"))
        else:
            result, ids = found_in_order(record, self._steps)
        observed = list(tool_call_names(record))
        return order_outcome(
            record, self.names, result, contiguous=self.contiguous, observed=observed, ids=ids
        )


@register
@attrs.frozen(init=False, slots=False, repr=False, eq=False)
class Sequencing(Check):
    """Each selector matches an event strictly after the previous step's event.

    A plain string is a tool name. ``sequencing()`` without selectors is a ``ValueError``.

    >>> from agent_asserts.record import TrialRecord
    >>> from agent_asserts import on
    >>> rec = TrialRecord.builder().skill("activated", "refund").tool("lookup").build()
    >>> Sequencing(on.skill("activated", "refund"), "lookup").evaluate(rec).status.value
    'pass'
    """

    selectors: tuple[Selector | str, ...]
    _steps: tuple[Selector, ...] = attrs.field(init=False, eq=False, repr=False)

    method: ClassVar[str] = "sequencing"
    varargs: ClassVar[str | None] = "selectors"
    step_default: ClassVar[str] = "tool"

    def __init__(self, *selectors: Selector | str) -> None:
        self.__attrs_init__(selectors=tuple(selectors))

    @_steps.default
    @given_fields_first
    def _select_steps(self) -> tuple[Selector, ...]:
        _check_steps(self.method, "selector", self.selectors)
        return tuple(
            as_selector(s, default=self.step_default, name=f"selectors[{i}]")
            for i, s in enumerate(self.selectors)
        )

    def evaluate(self, record: TrialRecord) -> Outcome:
        invalid = selector_surface(record, *self._steps)
        if invalid is not None:
            return invalid
        result, ids = found_in_order(record, self._steps)
        return order_outcome(record, self.selectors, result, ids=ids)


__all__ = [
    "Sequencing",
    "Subsequence",
    "ToolOrder",
    "find_in_order",
    "found_in_order",
    "order_outcome",
    "step_label",
]
