"""State changes over the delta D: ``changed``, ``unchanged``, ``only_changed``.

Paths are JSON Pointers (RFC 6901), validated when the check is built. A record whose initial
or final state was not recorded makes these checks ``invalid``. The change *at* a path is
the delta entry at that pointer or, when the change happened below it (a field of the
object) or above it (the whole object was added, removed or replaced), the change of the
value at that pointer from S0 to Sf; the related delta entries are the evidence.

>>> from agent_asserts.record import TrialRecord
>>> rec = TrialRecord.from_dict({
...     "events": [],
...     "initial_state": {"orders": {"A1": {"status": "paid", "total": 10}}},
...     "final_state": {"orders": {"A1": {"status": "refunded", "total": 10}}},
... })
>>> Changed("/orders/A1/status", after="refunded").evaluate(rec).message
"/orders/A1/status changed: 'paid' -> 'refunded'"
>>> OnlyChanged("/orders/A1/status").evaluate(rec).status.value
'pass'
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar, Literal

import attrs

from agent_asserts._text import LazyText
from agent_asserts._values import MISSING
from agent_asserts.checks import register
from agent_asserts.checks.base import Check
from agent_asserts.matching import ANY, Mismatch, explain, render
from agent_asserts.matching.values import plural
from agent_asserts.outcome import Outcome
from agent_asserts.record.delta import DeltaEntry, json_equal, parse_pointer, resolve

if TYPE_CHECKING:
    from agent_asserts.record import TrialRecord

OPS = ("added", "removed", "changed")


def pointer_validator(instance: object, attribute: attrs.Attribute[Any], value: Any) -> None:
    """attrs validator: a JSON Pointer (``""`` or ``/a/b``).

    >>> Unchanged("orders/A1049")
    Traceback (most recent call last):
    ...
    ValueError: 'path' must be a JSON Pointer: JSON Pointer must be '' or start with '/' ...
    """
    try:
        parse_pointer(value)
    except (TypeError, ValueError) as exc:
        raise ValueError(f"'{attribute.name}' must be a JSON Pointer: {exc}") from None


def at_or_below(path: str, root: str) -> bool:
    """True when pointer ``path`` is ``root`` or lies inside it.

    >>> at_or_below("/a/b", "/a"), at_or_below("/ab", "/a"), at_or_below("/a", "")
    (True, False, True)
    """
    return root == "" or path == root or path.startswith(root + "/")


def _no_delta(record: TrialRecord) -> Outcome | None:
    if record.initial_state is None:
        return Outcome.invalid("the record has no initial_state")
    if record.final_state is None:
        return Outcome.invalid("the record has no final_state")
    return None


def _related(delta: tuple[DeltaEntry, ...], path: str) -> list[DeltaEntry]:
    return [e for e in delta if at_or_below(e.path, path) or at_or_below(path, e.path)]


def _at_path(record: TrialRecord, path: str) -> Outcome | tuple[list[DeltaEntry], Any, Any]:
    """The delta entries at or below ``path`` and its values before and after; an ``invalid``
    outcome when the record has no delta or neither state has the path."""
    delta = record.delta
    if delta is None:
        return _no_delta(record) or Outcome.invalid("the record has no state delta")
    before, after = resolve(record.initial_state, path), resolve(record.final_state, path)
    if before is MISSING and after is MISSING:
        return Outcome.invalid(f"the path {path!r} exists in neither initial_state nor final_state")
    return _related(delta, path), before, after


_Change = tuple[tuple[DeltaEntry, ...], Any, Any, DeltaEntry | None]


def _change_at(record: TrialRecord, path: str) -> Outcome | _Change:
    """:func:`_at_path` with the change it makes (None when the values are equal)."""
    found = _at_path(record, path)
    if isinstance(found, Outcome):
        return found
    entries, before, after = found
    moved = None
    if not json_equal(before, after):
        moved = DeltaEntry(path, _op_of(before, after), before, after)
    return (tuple(entries), before, after, moved)


def _op_of(before: Any, after: Any) -> Literal["added", "removed", "changed"]:
    if before is MISSING:
        return "added"
    if after is MISSING:
        return "removed"
    return "changed"


def _explain(expected: Any, actual: Any, path: str) -> list[Mismatch]:
    if isinstance(expected, type(ANY)):
        return []  # no constraint, even on a value that is MISSING (added / removed)
    return explain(expected, actual, path)


def _describe_change(path: str, before: Any, after: Any) -> str:
    if before is MISSING:
        return f"{path} added: {render(after)}"
    if after is MISSING:
        return f"{path} removed: {render(before)}"
    return f"{path} changed: {render(before)} -> {render(after)}"


@register
@attrs.frozen(slots=False, repr=False, eq=False)
class Changed(Check):
    """The value at ``path`` changed from S0 to Sf, optionally narrowed by ``op``
    (``added``/``removed``/``changed``) and by matchers on ``before`` and ``after``
    (``ANY`` = no constraint; an added value has no ``before``, only ``M.absent()`` matches it).

    >>> from agent_asserts.record import TrialRecord
    >>> rec = TrialRecord.from_dict({"events": [], "initial_state": {}, "final_state": {"a": 1}})
    >>> Changed("/a", op="changed").evaluate(rec).message
    "/a added: 1, expected op 'changed'"
    """

    path: str = attrs.field(validator=pointer_validator)
    before: Any = attrs.field(default=ANY, kw_only=True)
    after: Any = attrs.field(default=ANY, kw_only=True)
    op: Literal["added", "removed", "changed"] | None = attrs.field(default=None, kw_only=True)

    method: ClassVar[str] = "changed"
    positional: ClassVar[tuple[str, ...]] = ("path",)

    def __attrs_post_init__(self) -> None:
        if self.op is not None and self.op not in OPS:
            raise ValueError(f"'op' must be one of 'added', 'removed', 'changed' (got {self.op!r})")

    def evaluate(self, record: TrialRecord) -> Outcome:
        found = _change_at(record, self.path)
        if isinstance(found, Outcome):
            return found
        entries, before, after, change = found
        related = tuple([e.to_dict() for e in entries])
        if change is None:
            return Outcome.of(
                False, message=f"{self.path} did not change", observed=None, evidence=related
            )
        op = change.op
        observed = change.to_dict()
        text: str | LazyText = LazyText(_describe_change, self.path, before, after)
        problems = []
        if self.op is not None and op != self.op:
            problems.append(f"expected op {self.op!r}")
        mismatches = [
            *_explain(self.before, before, "$.before"),
            *_explain(self.after, after, "$.after"),
        ]
        if not problems and not mismatches:  # the common pass: no mismatches to convert
            return Outcome.of(True, message=text, observed=observed, evidence=related)
        problems += [str(m) for m in mismatches]
        if problems:
            text = f"{text}, {'; '.join(problems)}"
        return Outcome.of(
            not problems, message=text, observed=observed, evidence=related, mismatches=mismatches
        )


@register
@attrs.frozen(slots=False, repr=False, eq=False)
class Unchanged(Check):
    """Nothing at or below ``path`` changed (nor was it added or removed with a parent).

    >>> from agent_asserts.record import TrialRecord
    >>> rec = TrialRecord.from_dict({"events": [], "initial_state": {"a": {"b": 1}},
    ...                              "final_state": {"a": {"b": 2}}})
    >>> Unchanged("/a").evaluate(rec).message
    '/a changed (1 related change: changed /a/b: 1 -> 2)'
    """

    path: str = attrs.field(validator=pointer_validator)

    method: ClassVar[str] = "unchanged"
    positional: ClassVar[tuple[str, ...]] = ("path",)

    def evaluate(self, record: TrialRecord) -> Outcome:
        found = _at_path(record, self.path)
        if isinstance(found, Outcome):
            return found
        related, before, after = found
        if json_equal(before, after):
            return Outcome.of(True, message=f"{self.path} did not change", observed=None)
        shown = "; ".join(str(e) for e in related[:3]) + ("; …" if len(related) > 3 else "")
        return Outcome.of(
            False,
            message=f"{self.path} changed ({plural(len(related), 'related change')}: {shown})",
            observed=DeltaEntry(self.path, _op_of(before, after), before, after).to_dict(),
            evidence=tuple(e.to_dict() for e in related),
        )


@register
@attrs.frozen(init=False, slots=False, repr=False, eq=False)
class OnlyChanged(Check):
    """Frame condition: every delta entry lies at or below one of ``paths``; with no paths,
    nothing may change at all.

    >>> from agent_asserts.record import TrialRecord
    >>> rec = TrialRecord.from_dict({"events": [], "initial_state": {"a": 1, "b": 1},
    ...                              "final_state": {"a": 2, "b": 2}})
    >>> OnlyChanged("/a").evaluate(rec).message
    'changed outside /a: changed /b: 1 -> 2'
    """

    paths: tuple[str, ...]

    method: ClassVar[str] = "only_changed"
    varargs: ClassVar[str | None] = "paths"

    def __init__(self, *paths: str) -> None:
        self.__attrs_init__(paths=tuple(paths))

    def __attrs_post_init__(self) -> None:
        for path in self.paths:
            try:
                parse_pointer(path)
            except (TypeError, ValueError) as exc:
                raise ValueError(f"'paths' must be JSON Pointers: {exc}") from None

    def evaluate(self, record: TrialRecord) -> Outcome:
        delta = record.delta
        if delta is None:
            return _no_delta(record) or Outcome.invalid("the record has no state delta")
        inside = [e for e in delta if any(at_or_below(e.path, p) for p in self.paths)]
        outside = [e for e in delta if not any(at_or_below(e.path, p) for p in self.paths)]
        allowed = ", ".join(self.paths)
        if not outside:
            text = f"{plural(len(inside), 'change')}, all within {allowed or 'nothing'}"
            return Outcome.of(True, message=text, evidence=tuple(e.to_dict() for e in inside))
        shown = "; ".join(str(e) for e in outside[:5]) + ("; …" if len(outside) > 5 else "")
        head = f"changed outside {allowed}" if self.paths else "nothing may change, but"
        return Outcome.of(
            False,
            message=f"{head}: {shown}",
            observed=[e.to_dict() for e in outside],
            evidence=tuple(e.to_dict() for e in outside),
        )


__all__ = ["Changed", "OnlyChanged", "Unchanged", "at_or_below", "pointer_validator"]
