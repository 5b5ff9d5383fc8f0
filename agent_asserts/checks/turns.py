"""Tool runs within one user turn: ``tools_within_one_turn``.

The check passes when some user turn holds a run for every listed call. Each run counts
toward one listed call only. Unordered, runs are assigned to calls by **maximum bipartite
matching** (docs/mantle.md), so ``[A (any arguments), A {x: 1}]`` is satisfied by runs
``A {x: 1}, A {x: 2}`` whatever their order; ordered, each call takes the earliest matching run
after the previous call's run (optimal for subsequences). With ``allow_extra_calls=False`` a
turn with any other counted run fails — that disqualifies only its own turn. Tools named in
``ignore`` neither satisfy a call nor count as extra. Turns are the record's (explicit, or
derived from user messages).

>>> from agent_asserts.record import TrialRecord
>>> from agent_asserts import on
>>> rec = (
...     TrialRecord.builder()
...     .user("replace my card")
...     .tool("A", {"x": 1}).tool("A", {"x": 2}).tool("listen")
...     .build()
... )
>>> check = ToolsWithinOneTurn("A", on.tool("A", {"x": 1}), allow_extra_calls=False,
...                            ignore=("listen",))
>>> check.evaluate(rec).message
'turn 1 has every listed call: e2, e1'
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any, ClassVar

import attrs

from agent_asserts.checks.base import Check
from agent_asserts.checks.registry import register
from agent_asserts.checks.selection import event_ids, id_list, tool_name
from agent_asserts.checks.sequencing import find_in_order, step_label
from agent_asserts.matching.containers import maximum_matching
from agent_asserts.outcome import Outcome, missing_surface
from agent_asserts.selectors import as_selector
from agent_asserts.selectors.calls import Selector, ToolSelector

if TYPE_CHECKING:
    from agent_asserts.record import TrialRecord

MAX_TURNS_SHOWN = 6


def _bool(instance: object, attribute: attrs.Attribute[Any], value: Any) -> None:
    if not isinstance(value, bool):
        raise TypeError(f"'{attribute.name}' must be a bool (got {value!r})")


def _names(value: Iterable[ToolSelector | str] | str) -> tuple[ToolSelector | str, ...]:
    if isinstance(value, str):
        raise TypeError(f"'ignore' must be a list of tool names, not one string (got {value!r})")
    entries = tuple(value)
    for i, entry in enumerate(entries):
        if isinstance(entry, ToolSelector):
            continue
        if not isinstance(entry, str) or not entry:
            raise TypeError(
                f"'ignore[{i}]' must be a tool name or an on.tool(...) selector (got {entry!r})"
            )
    return entries


def _covers(entry: ToolSelector | str, name: str, step: ToolSelector) -> bool:
    """True when ``entry`` ignores every run of ``name`` that the listed call ``step`` matches."""
    if isinstance(entry, str):
        return entry == name
    same_source = entry.source is None or entry.source == step.source
    return name in entry.names and same_source


@register
@attrs.frozen(init=False)
class ToolsWithinOneTurn(Check):
    """Every listed call (``on.tool(...)`` or a tool name) ran in one and the same user turn.

    Args:
        *calls: At least two tool selectors; a string is a tool name.
        allow_extra_calls: ``False`` fails a turn holding any other counted run.
        ordered: Require the listed order inside the turn.
        ignore: Tool names, or ``on.tool(...)`` selectors (e.g. only local runs of a name), whose
            runs neither satisfy a call nor count as extra.

    >>> ToolsWithinOneTurn("a", allow_extra_calls=True)
    Traceback (most recent call last):
    ...
    ValueError: tools_within_one_turn() needs at least two calls (got 1)
    """

    calls: tuple[ToolSelector | str, ...]
    allow_extra_calls: bool = attrs.field(validator=_bool)
    ordered: bool = attrs.field(default=False, validator=_bool)
    ignore: tuple[ToolSelector | str, ...] = attrs.field(default=(), converter=_names)
    _steps: tuple[ToolSelector, ...] = attrs.field(init=False, eq=False, repr=False)

    method: ClassVar[str] = "tools_within_one_turn"
    varargs: ClassVar[str | None] = "calls"

    def __init__(
        self,
        *calls: ToolSelector | str,
        allow_extra_calls: bool,
        ordered: bool = False,
        ignore: Iterable[ToolSelector | str] = (),
    ) -> None:
        self.__attrs_init__(
            calls=tuple(calls),
            allow_extra_calls=allow_extra_calls,
            ordered=ordered,
            ignore=ignore,
        )

    def __attrs_post_init__(self) -> None:
        if len(self.calls) < 2:
            raise ValueError(
                f"tools_within_one_turn() needs at least two calls (got {len(self.calls)})"
            )
        steps: list[ToolSelector] = []
        for position, call in enumerate(self.calls):
            step: Selector = as_selector(call, default="tool", name=f"calls[{position}]")
            if not isinstance(step, ToolSelector):
                raise TypeError(
                    f"'calls[{position}]' must be an on.tool(...) selector or a tool name "
                    f"(got {call!r})"
                )
            if all(any(_covers(e, n, step) for e in self.ignore) for n in step.names):
                raise ValueError(
                    f"{step_label(call)} names an ignored tool: it could never be satisfied"
                )
            steps.append(step)
        object.__setattr__(self, "_steps", tuple(steps))

    def evaluate(self, record: TrialRecord) -> Outcome:
        invalid = missing_surface(record, "tool_call", "message")
        if invalid is not None:
            return invalid
        turns: dict[int, list[int]] = {}
        names = {e for e in self.ignore if isinstance(e, str)}
        selectors = [e for e in self.ignore if isinstance(e, ToolSelector)]
        for p in record.positions_of_kind("tool_call"):
            event = record.events[p]
            if tool_name(record, p) in names or any(s.matches(event) for s in selectors):
                continue
            turns.setdefault(event.turn or 0, []).append(p)
        observed = {t: [tool_name(record, p) for p in runs] for t, runs in turns.items()}
        reasons: list[str] = []
        for turn, runs in sorted(turns.items()):
            assigned, why = self._fit(record, runs)
            if why is None:
                ids = event_ids(record, assigned)
                text = f"turn {turn} has every listed call: {id_list(ids, limit=10)}"
                return Outcome.of(True, message=text, evidence=ids, observed=observed)
            reasons.append(f"turn {turn}: {why}")
        counted = event_ids(record, [p for runs in turns.values() for p in runs])
        if not reasons:
            return Outcome.of(False, message="no counted tool run in any turn", observed=observed)
        shown = "; ".join(reasons[:MAX_TURNS_SHOWN])
        if len(reasons) > MAX_TURNS_SHOWN:
            shown += f"; … ({len(reasons)} turns with runs)"
        text = f"no turn has every listed call: {shown}"
        return Outcome.of(False, message=text, evidence=counted, observed=observed)

    def _fit(self, record: TrialRecord, runs: list[int]) -> tuple[list[int], str | None]:
        """The runs assigned to the calls (in call order) and why the turn fails, or None."""
        fit = self._fit_ordered if self.ordered else self._fit_unordered
        assigned, why = fit(record, runs)
        if why is None and not self.allow_extra_calls:
            used = set(assigned)
            extra = [p for p in runs if p not in used]
            if extra:
                events = record.events
                shown = ", ".join(f"{tool_name(record, p)!r} ({events[p].event_id})" for p in extra)
                return assigned, f"extra runs not allowed: {shown}"
        return assigned, why

    def _fit_ordered(self, record: TrialRecord, runs: list[int]) -> tuple[list[int], str | None]:
        # the earliest-match subsequence search of tool_order/sequencing, over this turn's runs
        found = find_in_order(record, self._steps, within=runs)
        assigned = list(found.positions)
        k = found.missing
        if k is None:
            return assigned, None
        where = "" if k == 0 else f" after {record.events[assigned[-1]].event_id}"
        return assigned, f"{step_label(self.calls[k])} not found{where}"

    def _fit_unordered(self, record: TrialRecord, runs: list[int]) -> tuple[list[int], str | None]:
        events = record.events
        adjacency = [[j for j, p in enumerate(runs) if s.matches(events[p])] for s in self._steps]
        matching = maximum_matching(adjacency, len(runs))
        missing = [k for k, j in enumerate(matching) if j < 0]
        if not missing:
            return [runs[j] for j in matching], None
        parts = []
        for k in missing:
            label = step_label(self.calls[k])
            if adjacency[k]:
                parts.append(f"{label} has no run of its own (its runs count toward other calls)")
            else:
                parts.append(f"no run of {label}")
        return [], ", ".join(parts)


__all__ = ["ToolsWithinOneTurn"]
