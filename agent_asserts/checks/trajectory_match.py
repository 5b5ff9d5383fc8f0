"""``matches_trajectory``: compare the run's tool calls with a reference trajectory.

``order`` says how the two lists must correspond:

* ``strict``: the same calls in the same order (calls that share a ``group_id`` — parallel
  calls of one model response — may come in any order among themselves);
* ``in_order``: the reference is a subsequence of the run (other calls may come between);
* ``unordered``: the same calls, as a multiset;
* ``subset``: every call of the run appears in the reference;
* ``superset``: every reference call appears in the run.

``arguments`` (and, per tool, ``tools={"name": mode}``) says when arguments match (see
:mod:`agent_asserts.checks.trajectory_reference`). The score is the F1 of the matched calls:
precision over the run's calls, recall over the reference's (a call the mode does not require
never counts against it), both in the result's details; the check passes only on a full match.

>>> from agent_asserts.record import TrialRecord
>>> rec = TrialRecord.builder().tool("lookup", {"id": 1}).tool("issue", {"amount": 40}).build()
>>> out = MatchesTrajectory([("lookup", {"id": 1}), ("issue", {"amount": 42})]).evaluate(rec)
>>> print(out.message)
the run does not match the reference (order 'strict', arguments 'exact'): 1 missing,
1 unexpected; matched 1 of 2 reference calls
  = ref[0] lookup({'id': 1}) at e0
  - ref[1] issue({'amount': 42}) missing
      closest e1: $.arguments.amount: expected 42, got 40
  + e1 issue({'amount': 40}) unexpected
>>> round(out.score, 2), out.details["precision"], out.details["recall"]
(0.5, 0.5, 0.5)
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterator, Mapping, Sequence
from itertools import compress, islice, repeat
from operator import eq
from typing import TYPE_CHECKING, Any, ClassVar, Literal

import attrs

from agent_asserts._missing import MISSING
from agent_asserts.checks.base import Check
from agent_asserts.checks.registry import register
from agent_asserts.checks.suggest_names import alias_hint
from agent_asserts.checks.trajectory_align import ordered_pairs, unordered_pairs
from agent_asserts.checks.trajectory_calls import Calls, References, read_calls
from agent_asserts.checks.trajectory_reference import (
    ORDER_MODES,
    CallSpec,
    check_argument_mode,
    mode_text,
    normalize_reference,
)
from agent_asserts.matching import MatcherError, render
from agent_asserts.outcome import Outcome, missing_surface
from agent_asserts.record import ToolCallPayload
from agent_asserts.status import Status

if TYPE_CHECKING:
    from agent_asserts.record import TrialRecord

Order = Literal["strict", "in_order", "unordered", "subset", "superset"]

SHOWN_ROWS = 20
"""The most diff rows a failure message shows (matched rows only when everything fits)."""
CLOSEST_SCAN = 200
"""The most same-name calls scanned for the closest candidate of a missing reference call."""


def _validate_order(_: Any, __: Any, value: Any) -> None:
    if value not in ORDER_MODES:
        accepted = ", ".join(repr(m) for m in ORDER_MODES)
        kind = ValueError if isinstance(value, str) else TypeError
        raise kind(
            f"matches_trajectory() parameter 'order' takes one of {accepted} (got {render(value)})"
        )


def _validate_arguments(_: Any, __: Any, value: Any) -> None:
    check_argument_mode(value, "arguments")


def _validate_tools(_: Any, __: Any, value: Any) -> None:
    if value is None:
        return
    if not isinstance(value, Mapping):
        raise TypeError(
            "matches_trajectory() parameter 'tools' takes a mapping of tool names to argument "
            f"modes (got {render(value)})"
        )
    for name, mode in value.items():
        if not isinstance(name, str):
            raise TypeError(
                f"matches_trajectory() parameter 'tools' keys are tool names (got {name!r})"
            )
        check_argument_mode(mode, f"tools[{name!r}]")


@register
@attrs.frozen
class MatchesTrajectory(Check):
    """The run's tool calls match ``reference`` under ``order`` and ``arguments``.

    >>> from agent_asserts.record import TrialRecord
    >>> rec = TrialRecord.builder().tool("a", {"x": 1}).tool("b").build()
    >>> print(MatchesTrajectory(["b", "a"], order="unordered").evaluate(rec).message)
    matched 2 of 2 reference calls and 2 of 2 calls of the run
    (order 'unordered', arguments 'exact')
    """

    reference: Any = attrs.field(converter=normalize_reference)
    order: Order = attrs.field(default="strict", kw_only=True, validator=_validate_order)
    arguments: Any = attrs.field(default="exact", kw_only=True, validator=_validate_arguments)
    tools: Mapping[str, Any] | None = attrs.field(
        default=None, kw_only=True, validator=_validate_tools
    )
    _references: References = attrs.field(init=False, eq=False, repr=False)

    method: ClassVar[str] = "matches_trajectory"
    positional: ClassVar[tuple[str, ...]] = ("reference",)

    @_references.default
    def _compile_references(self) -> References:
        attrs.validate(self)  # the given fields' own messages come first
        return References.compile(self.reference, self.arguments, self.tools)

    def primary(self) -> Any:
        return MISSING

    def evaluate(self, record: TrialRecord) -> Outcome:
        invalid = missing_surface(record, "tool_call")
        if invalid is not None:
            return invalid
        references = self._references
        positions = record.positions_of_kind("tool_call")
        # one pass over the calls: on a large run each event is far from the last in memory
        ordered = self.order in ("strict", "in_order")
        index = record.index
        group_of = record.groups.group_of if ordered else {}
        actual = read_calls(record.events, index.event_ids, positions, index.tools, group_of,
                            references.compared, set(references.keyed_ids), ordered=ordered,
                            tool_payload=ToolCallPayload)  # fmt: skip
        if isinstance(actual, int):
            event = record.events[actual]
            hint = alias_hint(record, [actual], ["arguments"])
            name = event.payload.name if isinstance(event.payload, ToolCallPayload) else ""
            return Outcome.invalid(
                f"tool call {event.event_id} ({name!r}) has no recorded arguments to compare" + hint
            )
        try:
            pairs = (ordered_pairs if ordered else unordered_pairs)(references, actual)
        except MatcherError as exc:
            return Outcome.error(str(exc))
        return self._outcome(record, references, actual, pairs)

    def _outcome(
        self, record: TrialRecord, references: References, actual: Calls, pairs: list[int]
    ) -> Outcome:
        counts_missing = self.order != "subset"
        counts_unexpected = self.order in ("strict", "unordered", "subset")
        unpaired = _positions_of(pairs, -1)
        missing = unpaired if counts_missing else []
        unexpected: list[int] = []
        if counts_unexpected:
            unpaired_calls = bytearray(actual.size + 1)  # pairs' -1 entries land on the last
            deque(map(unpaired_calls.__setitem__, actual.positions, repeat(1)), maxlen=0)
            deque(map(unpaired_calls.__setitem__, pairs, repeat(0)), maxlen=0)  # loops in C
            unexpected = _positions_of(unpaired_calls, 1)
        matched = len(pairs) - len(unpaired)
        precision = (len(actual) - len(unexpected)) / len(actual) if actual else 1.0
        total = len(references)
        recall = (total - len(missing)) / total if total else 1.0
        f1 = 0.0 if precision + recall == 0 else 2 * precision * recall / (precision + recall)
        passed = not missing and not unexpected
        modes = f"(order {self.order!r}, arguments {mode_text(self.arguments)})"
        details = {
            "precision": precision,
            "recall": recall,
            "f1": f1,
            "matched": matched,
            "missing": missing[:100],
            "unexpected": list(actual.event_ids(unexpected[:100])),
        }
        evidence = actual.event_ids([j for j in pairs if j >= 0] if unpaired else pairs)
        if passed:
            message = (
                f"matched {matched} of {total} reference calls and "
                f"{len(actual) - len(unexpected)} of {len(actual)} calls of the run {modes}"
            )
            return Outcome(Status.PASS, 1.0, message, details=details, evidence=evidence)
        problems = []
        if missing:
            problems.append(f"{len(missing)} missing")
        if unexpected:
            problems.append(f"{len(unexpected)} unexpected")
        head = (
            f"the run does not match the reference {modes}: {', '.join(problems)}; "
            f"matched {matched} of {total} reference calls"
        )
        rows = _Diff(record, references.specs, actual, pairs).rows(missing, unexpected, matched)
        message = "\n".join([head, *rows])
        return Outcome(
            Status.FAIL,
            f1,
            message,
            expected=total,
            observed=len(actual),
            details=details,
            evidence=evidence,
        )


def _positions_of(items: list[int] | bytearray, value: int) -> list[int]:
    """The positions of ``value`` in ``items``: by the C search of ``index``/``find``, one
    call per position found, when there are few; in one C pass (``compress``) when there are
    many (every call of a badly failing run), where a call per position would cost more.

    >>> _positions_of([3, -1, 2, -1], -1), _positions_of(bytearray(b"\\x01\\x00"), 0)
    ([1, 3], [1])
    """
    if isinstance(items, bytearray):
        position = items.find(value)
        hits = items.count(value) if position >= 0 else 0  # counts in C, memchr-fast
    else:
        try:
            position = items.index(value)
        except ValueError:
            return []
        hits = items.count(value)
    if hits * 3 > len(items):
        return list(compress(range(len(items)), map(eq, items, repeat(value))))
    found: list[int] = []
    if isinstance(items, bytearray):
        while position >= 0:
            found.append(position)
            position = items.find(value, position + 1)
        return found
    try:
        while True:
            found.append(position)
            position = items.index(value, position + 1)
    except ValueError:
        return found


class _Diff:
    def __init__(
        self,
        record: TrialRecord,
        specs: Sequence[CallSpec],
        actual: Calls,
        pairs: list[int],
    ) -> None:
        self.record = record
        self.specs, self.actual, self.pairs = specs, actual, pairs
        self.owner: list[int] = []
        self.by_name: Mapping[str, Sequence[int]] = {}

    def _call_text(self, j: int) -> str:
        arguments = self.actual.argument(j)
        return f"{self.actual.event_id(j)} {self.actual.name(j)}({render(arguments)})"

    def rows(self, missing: list[int], unexpected: list[int], matched: int) -> list[str]:
        """The aligned diff: ``=`` matched, ``-`` missing, ``+`` unexpected, in run order
        (every row when they fit in :data:`SHOWN_ROWS`, else the first differences).

        Only the rows shown are made: the counts are known (``matched`` pairs, and when
        ``missing`` is given every unpaired reference call is in it).
        """
        different = len(missing) + len(unexpected)
        aligned = self._aligned(bool(missing), unexpected)
        if matched + different <= SHOWN_ROWS:
            rows = list(aligned)
        else:
            rows = list(islice((row for row in aligned if row[0] != "="), SHOWN_ROWS))
        extra = different - sum(1 for sign, _ in rows if sign != "=")
        if any(sign == "-" for sign, _ in rows):  # the owner of a call paired elsewhere
            self.owner = [-1] * (self.actual.size + 1)  # unpaired (-1) entries land on the last
            deque(map(self.owner.__setitem__, self.pairs, range(len(self.pairs))), maxlen=0)
        self.by_name = self.actual.by_name
        lines = [line for row in rows for line in self._row(*row)]
        if extra:
            lines.append(f"  … and {extra} more differences")
        return lines

    def _aligned(self, show_missing: bool, unexpected: list[int]) -> Iterator[tuple[str, int]]:
        # ``unexpected`` is in run order; when missing calls count, every unpaired reference
        # call is one
        k = 0
        for i, j in enumerate(self.pairs):
            if j >= 0:
                while k < len(unexpected) and unexpected[k] < j:
                    yield ("+", unexpected[k])
                    k += 1
                yield ("=", i)
            elif show_missing:
                yield ("-", i)
        for j in unexpected[k:]:
            yield ("+", j)

    def _row(self, sign: str, index: int) -> list[str]:
        if sign == "+":
            return [f"  + {self._call_text(index)} unexpected"]
        spec = self.specs[index]
        if sign == "=":
            return [f"  = ref[{index}] {spec.text()} at {self.actual.event_id(self.pairs[index])}"]
        lines = [f"  - ref[{index}] {spec.text()} missing"]
        same_name = self.by_name.get(spec.name, [])
        if not same_name:
            lines.append(f"      no call of {spec.name!r} in the run")
            return lines
        candidates = same_name[:CLOSEST_SCAN]
        for j in candidates:
            if spec.compatible(self.actual.argument(j)):
                owner = self.owner[j]
                taken = "" if owner < 0 else f", paired with ref[{owner}]"
                where = self.actual.event_id(j)
                lines.append(f"      a matching call ran out of order at {where}{taken}")
                return lines
        best = min(candidates, key=lambda j: len(spec.explain(self.actual.argument(j), "$")))
        mismatches = spec.explain(self.actual.argument(best), "$.arguments")
        where = self.actual.event_id(best)
        first = f": {mismatches[0]}" if mismatches else ""
        hint = alias_hint(self.record, [best], ["arguments"])
        lines.append(f"      closest {where}{first}{hint}")
        lines.extend(f"        {m}" for m in mismatches[1:5])
        return lines


__all__ = ["MatchesTrajectory"]
