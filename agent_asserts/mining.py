"""Mining a suite from runs the user trusts: ``agent-asserts infer`` and :func:`infer`.

From a batch of records (runs that behaved as they should), :func:`infer` proposes the checks
that held in them and writes them as a native suite file (docs/suite-files.md), one check per
line with its support as a comment (``# held in 48 of 50 runs``):

* the tools always called, with the observed count range; the tools the runs declare and
  never call; the set of tools called (``only_declared_tools``);
* the order that held in every run — ``A`` before ``B``, or ``A`` directly followed by ``B``
  — reduced to what no other mined order already implies;
* per tool, argument invariants: a constant, one of a small set, a shared shape of strings
  (ids, dates, e-mail addresses, as an anchored regular expression), a numeric range;
* the state paths always changed and the paths that may change at all (a frame condition);
  the memory keys always set;
* the outcome (status ``completed``, a reply) and budgets — steps, tool calls, tokens,
  duration — at the observed maximum times a margin.

Every proposed check is then *evaluated* on every run with the library's own checks, so its
support is exact: a check that held in every run is a gate; with ``min_support`` below 1, a
check that held in at least that share of the runs is added as a soft check. The suite written
therefore loads, validates and passes on every run it was mined from. With ``group_by`` (a
record metadata key) each scenario gets its own case.

>>> from agent_asserts.record import TrialRecord
>>> runs = [
...     TrialRecord.builder().user("refund").tool("lookup", {"id": f"A{n}"})
...     .tool("refund", {"id": f"A{n}", "amount": 10 + n}).agent("Done")
...     .build(status="completed", steps=3)
...     for n in range(1000, 1006)
... ]
>>> suite = infer(runs)
>>> [m.check.method for m in suite.cases[0].checks]  # doctest: +NORMALIZE_WHITESPACE
['succeeded', 'ended_with_reply', 'called_tool', 'called_tool', 'only_declared_tools',
 'tool_order', 'every_call', 'every_call', 'max_steps', 'max_tool_calls']
>>> suite.evaluate_all(runs)
[True, True, True, True, True, True]
"""

from __future__ import annotations

import itertools
import json
import math
import re
from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, Final

import attrs

from agent_asserts._values import MISSING
from agent_asserts.checks.base import Check
from agent_asserts.checks.conversation import MemoryWasSet
from agent_asserts.checks.outcome import EndedWithReply, Succeeded
from agent_asserts.checks.sequencing import ToolOrder
from agent_asserts.checks.state import Changed, OnlyChanged
from agent_asserts.checks.tools import CalledTool, NotCalledTool, OnlyDeclaredTools
from agent_asserts.checks.trajectory import EveryCall
from agent_asserts.findings import budget_check, number_text, run_metrics
from agent_asserts.matching import Count, M
from agent_asserts.record import ToolCallPayload
from agent_asserts.status import Status

if TYPE_CHECKING:
    from agent_asserts.record import TrialRecord

SMALL_SET: Final = 5
"""At most this many distinct values of an argument make a ``one_of`` invariant."""

EMAIL: Final = r"^[^@\s]+@[^@\s]+\.[A-Za-z]{2,}$"


# -- what was mined ----------------------------------------------------------------------------


@attrs.frozen
class Mined:
    """One mined check: the check, how many runs it held in, of how many, and a note on what
    was observed (``observed 1-3 calls``)."""

    check: Check
    support: int
    runs: int
    note: str = ""

    @property
    def severity(self) -> str:
        """``gate`` when it held in every run, else ``soft``."""
        return "gate" if self.support == self.runs else "soft"

    def comment(self) -> str:
        """The comment written above the check in the suite file.

        >>> Mined(Succeeded(), 48, 50, "status completed").comment()
        'held in 48 of 50 runs; status completed'
        """
        head = f"held in {self.support} of {self.runs} runs"
        return f"{head}; {self.note}" if self.note else head


@attrs.frozen
class MinedCase:
    """The checks mined for one case (all the runs, or one scenario of ``group_by``)."""

    name: str
    runs: int
    checks: tuple[Mined, ...]

    def result_names(self) -> list[str | None]:
        """The result name of each check when its default name is not unique in the case
        (``tool_order:lookup>refund``), else None (the default name is kept)."""
        defaults = [m.check.default_name() for m in self.checks]
        out: list[str | None] = []
        for mined, default in zip(self.checks, defaults, strict=True):
            if defaults.count(default) == 1:
                out.append(None)
            elif isinstance(mined.check, ToolOrder):
                link = ">>" if mined.check.contiguous else ">"
                out.append(f"tool_order:{link.join(mined.check.names)}")
            else:
                out.append(f"{default}#{len([n for n in out if n and n.startswith(default)]) + 1}")
        return out

    def to_data(self) -> dict[str, Any]:
        """The native case form (``name``, ``checks``, ``metadata``)."""
        entries = []
        for mined, name in zip(self.checks, self.result_names(), strict=True):
            entry = mined.check.to_data()
            if name is not None:
                entry = {**entry, "name": name}
            if mined.severity == "soft":
                entry = {**entry, "severity": "soft"}
            entries.append(entry)
        support = [f"{m.support}/{m.runs}" for m in self.checks]
        return {
            "name": self.name,
            "checks": entries,
            "metadata": {"inferred_from_runs": self.runs, "support": support},
        }


@attrs.frozen
class MinedSuite:
    """What :func:`infer` mined: one case per scenario; :meth:`to_yaml` writes the suite."""

    cases: tuple[MinedCase, ...]
    name: str = "inferred"
    group_by: str | None = None

    def to_data(self) -> dict[str, Any]:
        """The native suite form (``name``, ``cases``).

        >>> from agent_asserts.record import TrialRecord
        >>> infer([TrialRecord.builder().agent("hi").build(status="completed")]).to_data()["name"]
        'inferred'
        """
        return {"name": self.name, "cases": [case.to_data() for case in self.cases]}

    def to_yaml(self) -> str:
        """The suite as YAML text, each check preceded by its support as a comment.

        The text needs no YAML library to be written (checks are written in flow style); it
        loads with :func:`agent_asserts.loaders.loads`.
        """
        total = sum(case.runs for case in self.cases)
        grouped = f", one case per {self.group_by!r}" if self.group_by else ""
        lines = [
            f"# Inferred by agent-asserts infer from {total} trusted runs{grouped}.",
            "# Each check held in the runs its comment says; soft checks held in fewer than all.",
            "# Review it: keep what the agent must always do, delete what was a coincidence.",
            f"name: {_flow(self.name)}",
            "cases:",
        ]
        for case in self.cases:
            data = case.to_data()
            lines.append(f"  - name: {_flow(case.name)}")
            lines.append(f"    metadata: {_flow({'inferred_from_runs': case.runs})}")
            lines.append("    checks:")
            for mined, entry in zip(case.checks, data["checks"], strict=True):
                lines.append(f"      # {mined.comment()}")
                severity = entry.pop("severity", None)
                result_name = entry.pop("name", None)
                [(method, arguments)] = entry.items()
                bare = arguments is None or (
                    isinstance(arguments, dict) and all(v is None for v in arguments.values())
                )
                lines.append(f"      - {method}" if bare else f"      - {_flow(entry)[1:-1]}")
                if result_name:
                    lines.append(f"        name: {_flow(result_name)}")
                if severity:
                    lines.append(f"        severity: {severity}")
        return "\n".join(lines) + "\n"

    def to_json(self) -> str:
        """The suite as JSON text (the support is in each case's ``metadata``)."""
        return json.dumps(self.to_data(), indent=2, ensure_ascii=False) + "\n"

    def evaluate_all(self, records: Iterable[TrialRecord]) -> list[bool]:
        """Whether every gate check of the record's case passes, per record (a check of the
        inferred suite, used by tests and the mutation benchmark).

        The case of a record is the one named by its ``group_by`` value (the only case without
        ``group_by``).
        """
        by_name = {case.name: case for case in self.cases}
        out = []
        for record in records:
            case = by_name.get(_group_name(record, self.group_by)) if self.group_by else None
            case = case or self.cases[0]
            out.append(
                all(
                    m.check.evaluate(record).status is not Status.FAIL
                    for m in case.checks
                    if m.severity == "gate"
                )
            )
        return out


_PLAIN: Final = re.compile(r"[A-Za-z_][A-Za-z0-9_.\-/]*")
_RESERVED: Final = frozenset({"true", "false", "null", "yes", "no", "on", "off", "y", "n", "~"})


def _flow(value: Any) -> str:
    """``value`` as YAML flow text (JSON quoting where a plain scalar would be misread).

    >>> _flow({"called_tool": {"name": "lookup", "count": {"between": [1, 3]}}})
    '{called_tool: {name: lookup, count: {between: [1, 3]}}}'
    >>> _flow({"$regex": "^A\\\\d+$", "k": "yes"})
    '{"$regex": "^A\\\\\\\\d+$", k: "yes"}'
    """
    if isinstance(value, Mapping):
        return "{" + ", ".join(f"{_flow(str(k))}: {_flow(v)}" for k, v in value.items()) + "}"
    if isinstance(value, list | tuple):
        return "[" + ", ".join(_flow(v) for v in value) + "]"
    if isinstance(value, str):
        plain = _PLAIN.fullmatch(value) and value.lower() not in _RESERVED
        return value if plain else json.dumps(value, ensure_ascii=False)
    return json.dumps(value)


# -- the observations of one group -------------------------------------------------------------


def _calls(record: TrialRecord) -> list[ToolCallPayload]:
    return [e.payload for e in record.tool_calls if isinstance(e.payload, ToolCallPayload)]


def _first_positions(names: Sequence[str]) -> dict[str, int]:
    first: dict[str, int] = {}
    for i, name in enumerate(names):
        first.setdefault(name, i)
    return first


def _count(low: int, high: int) -> int | Count:
    return low if low == high else Count.between(low, high)


def _tool_candidates(records: Sequence[TrialRecord], need: int) -> list[tuple[Check, str]]:
    runs = len(records)
    names = [[c.name for c in _calls(r)] for r in records]
    counts: dict[str, list[int]] = {}
    for i, run in enumerate(names):
        for name in run:
            counts.setdefault(name, [0] * runs)[i] += 1
    out: list[tuple[Check, str]] = []
    for name in sorted(counts):
        seen = [n for n in counts[name] if n]
        if len(seen) == runs:
            low, high = min(seen), max(seen)
            calls = (
                f"{low} call" + ("s" if high > 1 else "") if low == high else f"{low}-{high} calls"
            )
            out.append((CalledTool(name, count=_count(low, high)), f"observed {calls}"))
        elif len(seen) >= need:
            out.append((CalledTool(name), f"called in {len(seen)} runs"))
    declared = [r.tools for r in records]
    if all(tools is not None for tools in declared):
        offered = sorted({t.name for tools in declared if tools for t in tools})
        for name in offered:
            if name not in counts:
                out.append((NotCalledTool(name), "declared, never called"))
        out.append((OnlyDeclaredTools(), "every call names a tool the run declares"))
    elif counts:
        out.append((OnlyDeclaredTools(sorted(counts)), "the tools the runs called"))
    return out


def _order_candidates(records: Sequence[TrialRecord], need: int) -> list[tuple[Check, str]]:
    firsts = [_first_positions([c.name for c in _calls(r)]) for r in records]
    tools = sorted(set.intersection(*(set(f) for f in firsts))) if firsts else []
    before: dict[tuple[str, str], int] = {}
    for a in tools:
        for b in tools:
            if a != b:
                held = sum(1 for f in firsts if f[a] < f[b])
                if held >= need:
                    before[(a, b)] = held
    # keep an edge only when no third tool lies between a and b in the order (a Hasse edge)
    edges = [
        (a, b)
        for (a, b) in before
        if not any((a, c) in before and (c, b) in before for c in tools if c not in (a, b))
    ]
    out: list[tuple[Check, str]] = []
    for a, b in sorted(edges, key=lambda e: (min(f[e[0]] for f in firsts), e)):
        direct = all(_directly(r, a, b) for r in records)
        if direct:
            out.append((ToolOrder(a, b, contiguous=True), f"{a!r} directly followed by {b!r}"))
        else:
            out.append((ToolOrder(a, b), f"{a!r} first called before {b!r}"))
    return out


def _directly(record: TrialRecord, a: str, b: str) -> bool:
    names = [c.name for c in _calls(record)]
    return any(x == a and y == b for x, y in itertools.pairwise(names))


def _argument_candidates(records: Sequence[TrialRecord]) -> list[tuple[Check, str]]:
    by_tool: dict[str, list[Mapping[str, Any]]] = {}
    for record in records:
        for call in _calls(record):
            arguments = call.arguments
            if arguments is not MISSING and isinstance(arguments, Mapping):
                by_tool.setdefault(call.name, []).append(arguments)
    out: list[tuple[Check, str]] = []
    for tool in sorted(by_tool):
        calls = by_tool[tool]
        if len(calls) < 2:
            continue
        keys = set.intersection(*(set(a) for a in calls))
        wanted: dict[str, Any] = {}
        notes = []
        for key in sorted(keys):
            found = invariant([a[key] for a in calls])
            if found is not None:
                wanted[key], text = found
                notes.append(f"{key}: {text}")
        if wanted:
            note = f"over {len(calls)} calls; " + "; ".join(notes)
            out.append((EveryCall(tool, arguments=wanted), note))
    return out


def invariant(values: Sequence[Any]) -> tuple[Any, str] | None:
    """The invariant of one argument over its observed ``values``, and how it was found:
    a constant, one of a small set, a numeric range, or a shared shape of strings.

    >>> invariant(["EUR", "EUR", "EUR"])
    ('EUR', 'constant')
    >>> invariant([3, 17, 5])[1]
    'from 3 to 17'
    >>> print(invariant(["A1049", "B2211", "A0003"])[0].pattern)
    ^[A-Z]\\d{4}$
    """
    if not values or any(not _scalar(v) for v in values):
        return None
    distinct = list(dict.fromkeys(json.dumps(v, sort_keys=True) for v in values))
    if len(distinct) == 1:
        return values[0], "constant"
    if len(distinct) <= SMALL_SET and len(distinct) < len(values):
        choices = [json.loads(d) for d in distinct]
        return M.one_of(*sorted(choices, key=json.dumps)), f"one of {len(choices)} values"
    if all(isinstance(v, int | float) and not isinstance(v, bool) for v in values):
        if all(math.isfinite(v) for v in values):
            return M.between(min(values), max(values)), f"from {min(values)} to {max(values)}"
        return None
    if all(isinstance(v, str) for v in values):
        pattern = shape(values)
        if pattern is not None:
            return M.regex(pattern), "a shared shape"
    return None


def _scalar(value: Any) -> bool:
    return value is None or isinstance(value, str | int | float | bool)


_CLASSES: Final = (("A", "[A-Z]"), ("a", "[a-z]"), ("d", r"\d"))
_SPECIAL: Final = frozenset(".^$*+?{}[]\\|()")


def _class_of(ch: str) -> str:
    if "A" <= ch <= "Z":
        return "A"
    if "a" <= ch <= "z":
        return "a"
    if "0" <= ch <= "9":
        return "d"
    return ch


def _segments(text: str) -> list[tuple[str, int]]:
    out: list[tuple[str, int]] = []
    for ch in text:
        kind = _class_of(ch)
        if out and out[-1][0] == kind and kind in "Aad":
            out[-1] = (kind, out[-1][1] + 1)
        else:
            out.append((kind, 1))
    return out


def shape(values: Sequence[str]) -> str | None:
    """An anchored regular expression every string of ``values`` has the shape of, or None.

    Letters and digits are classes (their run lengths become ``{n}`` or ``{m,n}``); any other
    character is kept as it is. E-mail addresses get the e-mail shape.

    >>> shape(["2026-01-05", "2025-12-31"])
    '^\\\\d{4}-\\\\d{2}-\\\\d{2}$'
    >>> shape(["ann@x.org", "bob.lee@corp.io"])
    '^[^@\\\\s]+@[^@\\\\s]+\\\\.[A-Za-z]{2,}$'
    >>> shape(["hello world", "x"]) is None
    True
    """
    if all(re.fullmatch(EMAIL, v) for v in values):
        return EMAIL
    shapes = [_segments(v) for v in values]
    kinds = {tuple(k for k, _ in s) for s in shapes}
    if len(kinds) != 1 or not values[0]:
        return None
    parts = []
    for i, (kind, _) in enumerate(shapes[0]):
        lengths = [s[i][1] for s in shapes]
        low, high = min(lengths), max(lengths)
        cls = dict(_CLASSES).get(kind)
        if cls is None:
            parts.append("\\" + kind if kind in _SPECIAL else kind)
            continue
        if low == high:
            parts.append(cls if low == 1 else f"{cls}{{{low}}}")
        else:
            parts.append(f"{cls}{{{low},{high}}}")
    return "^" + "".join(parts) + "$"


def _state_candidates(records: Sequence[TrialRecord]) -> list[tuple[Check, str]]:
    deltas = [r.delta for r in records]
    if not deltas or any(d is None for d in deltas):
        return []
    changed = [{e.path for e in d} for d in deltas if d is not None]
    always = set.intersection(*changed)
    out: list[tuple[Check, str]] = [
        (Changed(path), "changed in every run") for path in sorted(always) if path
    ]
    union = generalise_paths(set.union(*changed))
    out.append((OnlyChanged(*union), "nothing else changed (a frame condition)"))
    return out


def generalise_paths(paths: Iterable[str]) -> list[str]:
    """The JSON Pointers ``paths`` with the ones that differ in one segment, an id (a segment
    with a digit: ``A1049``, ``42``), merged into their common parent, and the paths below
    another one dropped.

    >>> generalise_paths(["/orders/A1/status", "/orders/A2/status", "/audit/0", "/total"])
    ['/audit/0', '/orders', '/total']
    """
    split = [p.split("/") for p in dict.fromkeys(paths)]
    # the distinct ids found at each id position, the rest of the path being the same
    ids: dict[tuple[int, tuple[str, ...], tuple[str, ...]], set[str]] = {}
    for segs in split:
        for k in range(1, len(segs)):
            if _is_id(segs[k]):
                ids.setdefault((k, tuple(segs[:k]), tuple(segs[k + 1 :])), set()).add(segs[k])
    merged = set()
    for segs in split:
        cut = next(
            (
                k
                for k in range(1, len(segs))
                if _is_id(segs[k]) and len(ids[(k, tuple(segs[:k]), tuple(segs[k + 1 :]))]) > 1
            ),
            None,
        )
        merged.add("/".join(segs if cut is None else segs[:cut]))
    kept = sorted(merged)
    below = {p for p in kept for q in _parents(p) if q in merged}
    return [p for p in kept if p not in below]


def _parents(path: str) -> list[str]:
    segs = path.split("/")
    return ["/".join(segs[:k]) for k in range(1, len(segs))]


def _is_id(segment: str) -> bool:
    return any(ch.isdigit() for ch in segment)


def _memory_candidates(records: Sequence[TrialRecord]) -> list[tuple[Check, str]]:
    sets = []
    for record in records:
        keys = set()
        for p in record.positions_of_kind("memory"):
            event = record.events[p]
            name = getattr(event.payload, "name", None)
            if event.event_type == "set" and isinstance(name, str):
                keys.add(name)
        sets.append(keys)
    if not sets:
        return []
    return [(MemoryWasSet(k), "set in every run") for k in sorted(set.intersection(*sets))]


def _budget_candidates(records: Sequence[TrialRecord], margin: float) -> list[tuple[Check, str]]:
    metrics = [run_metrics(r) for r in records]
    out: list[tuple[Check, str]] = []

    def known(name: str) -> list[float] | None:
        values = [m[name] for m in metrics]
        return None if any(v is None for v in values) else [v for v in values if v is not None]

    for metric in ("steps", "tool_calls", "tokens"):
        values = known(metric)
        if values:
            limit = math.ceil(max(values) * margin)
            note = f"observed at most {number_text(max(values))}, × {margin}"
            out.append((budget_check(metric, limit), note))
    durations = known("duration")
    if durations:
        seconds = round(max(durations) * margin, 3) or 0.001
        note = f"observed at most {number_text(max(durations))} s"
        out.append((budget_check("duration", seconds), note))
    return out


def _outcome_candidates(records: Sequence[TrialRecord]) -> list[tuple[Check, str]]:
    out: list[tuple[Check, str]] = []
    if all(r.status == "completed" for r in records):
        out.append((Succeeded(), "status completed"))
    if all(isinstance(r.reply, str) for r in records):
        out.append((EndedWithReply(), "every run ended with a reply"))
    return out


# -- mining ------------------------------------------------------------------------------------


def _group_name(record: TrialRecord, key: str | None) -> str:
    if key is None:
        return "all runs"
    value = record.metadata.get(key)
    return "(none)" if value is None else str(value)


def mine_case(
    records: Sequence[TrialRecord], *, name: str, min_support: float = 1.0, margin: float = 1.2
) -> MinedCase:
    """Mine one case from ``records`` (see :func:`infer`)."""
    runs = len(records)
    need = max(1, math.ceil(min_support * runs))
    candidates = [
        *_outcome_candidates(records),
        *_tool_candidates(records, need),
        *_order_candidates(records, need),
        *_argument_candidates(records),
        *_state_candidates(records),
        *_memory_candidates(records),
        *_budget_candidates(records, margin),
    ]
    kept = []
    seen: set[Any] = set()
    for check, note in candidates:
        key = json.dumps(check.to_data(), sort_keys=True, default=repr)
        if key in seen:
            continue
        seen.add(key)
        support = sum(1 for r in records if check.evaluate(r).status is Status.PASS)
        if support == runs or (min_support < 1 and support >= need):
            kept.append(Mined(check, support, runs, note))
    return MinedCase(name, runs, tuple(kept))


def infer(
    records: Iterable[TrialRecord],
    *,
    min_support: float = 1.0,
    margin: float = 1.2,
    group_by: str | None = None,
    name: str = "inferred",
) -> MinedSuite:
    """Mine a suite from trusted runs: the checks that held in them (see the module doc).

    Args:
        records: The runs (read once into a list).
        min_support: With a value below 1, checks that held in at least this share of the
            runs are added as soft checks (a gate check held in every run).
        margin: Budgets are the observed maximum times this (default 1.2).
        group_by: A record metadata key: one case per value (a scenario).
        name: The suite's name.

    Raises:
        ValueError: no records, or a setting out of range.

    >>> from agent_asserts.record import TrialRecord
    >>> runs = [TrialRecord.from_dict({"events": [], "metadata": {"scenario": s}})
    ...         for s in ("x", "y", "x")]
    >>> [c.name for c in infer(runs, group_by="scenario").cases]
    ['x', 'y']
    """
    if not 0 < min_support <= 1 or isinstance(min_support, bool):
        raise ValueError(
            f"'min_support' must be a share of the runs in (0, 1] (got {min_support!r})"
        )
    if isinstance(margin, bool) or not isinstance(margin, int | float) or not margin >= 1:
        raise ValueError(f"'margin' must be a number >= 1 (got {margin!r})")
    batch = list(records)
    if not batch:
        raise ValueError("infer needs at least one run")
    groups: dict[str, list[TrialRecord]] = {}
    for record in batch:
        groups.setdefault(_group_name(record, group_by), []).append(record)
    cases = tuple(
        mine_case(group, name=label, min_support=min_support, margin=margin)
        for label, group in groups.items()
    )
    return MinedSuite(cases, name=name, group_by=group_by)


__all__ = [
    "SMALL_SET",
    "Mined",
    "MinedCase",
    "MinedSuite",
    "generalise_paths",
    "infer",
    "invariant",
    "mine_case",
    "shape",
]
