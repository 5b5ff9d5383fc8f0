"""The operators of ``require`` and the relations they judge, item by item: value tests,
the judge, and relations between two selections.

The operators, in two tables (at the end): each ``op``, and each ``matcher`` of
``op: matcher``, mapped to how it reads in a message and how it judges the items of
``left``. Adding an operator is adding one row there (and its rules in
:mod:`agent_asserts.contract.problems`); the validator takes the names it accepts, and its
did-you-mean suggestions, from the tables' keys.

>>> from agent_asserts.contract.model import Requirement
>>> req = Requirement("has_matching", "m", "a", on=("operation_ref",), within=2)
>>> operator_of(req).describe(req, "a")
"has a matching 'a' item on operation_ref within 2s"
>>> list(MATCHER_OPERATORS)
['exact', 'structural', 'semantic', 'grounded_semantic', 'custom']

Value relations: the testers that equals, contains, matches_schema and the matchers build.

Each left item is tested against ``right`` (a literal, possibly with ``$``-operator matchers, or
the value of a ``{$bind: name}`` binding); the verdict names what the item lacked, as
mismatch paths into it (``$.payload.text: …``).

>>> from agent_asserts.matching import M
>>> test = matcher_tester(M.contains("A1049"))
>>> v = test("Refund for B7", "e4")
>>> v.ok, v.reason
(False, "$: expected a value containing 'A1049', got 'Refund for B7'")

Custom matchers, ``matcher: custom``: Python callables registered by name (:data:`MATCHERS`).

A custom matcher is ``fn(actual, expected) -> bool``: ``actual`` is what the relation sees of
one left item (an event's dict form, a delta entry's, or an extracted value) and ``expected``
the requirement's ``right`` (None when it has none). Returning anything but ``True`` or
``False``, or raising, makes the result ``evaluator_error``.

>>> @register_matcher("same_order")
... def same_order(actual, expected):
...     return actual.get("order_id") == expected
>>> get_matcher("same_order") is same_order
True
>>> unregister_matcher("same_order")

Judged relations, ``matcher: semantic | grounded_semantic``: the judge decides, item by item.

The criterion is ``right`` (text). For ``semantic`` the judge sees the item alone; for
``grounded_semantic`` it sees the item and the ``grounding`` selections, and nothing else of
the record. The request is rendered by :func:`agent_asserts.judges.render_prompt` (fenced,
untrusted JSON); a judge that raises or answers badly is an ``evaluator_error`` that always
gates, like every judge error.

>>> from agent_asserts.contract.bindings import Bound
>>> from agent_asserts.contract.model import Requirement
>>> from agent_asserts.judges import JudgeResponse
>>> req = Requirement("matcher", "m", "is polite", matcher="semantic")
>>> left = Bound("m", False, ("Thanks!",), ("e1",), (None,), (None,), (), 1)
>>> verdicts, info = judged_verdicts(req, left, {}, lambda r: JudgeResponse(1.0, explanation="yes"))
>>> verdicts[0].ok, info["judge_calls"]
(True, 1)

Relations between two selections. The ``on`` keys are read once per item: ``has_matching``,
``precedes`` and ``follows_within`` all pair a left item with right items that record equal
``on`` fields. :class:`OnKeys` reads those fields (raw for messages, hashable for indexes),
:func:`grouped` indexes the right side once, and :func:`each_keyed` judges every left item by
its key. An ``on`` field an item does not record matches nothing.

>>> from agent_asserts.record import Event
>>> keys = OnKeys(("operation_ref",))
>>> keys.key(Event("audit", {}, "e1", operation_ref="op-7")), keys.key(Event("audit", {}, "e2"))
((('op-7',), None), (None, 'operation_ref'))

``has_matching``: each left item has a right item with equal ``on`` fields. The right side is
indexed once by its ``on`` keys (a dict from key to positions), so the
relation costs O(left + right) (times a log factor for a ``within`` bound), never a nested scan.
A left item without a partner is explained by its closest candidate: the right item sharing
the most ``on`` fields or, with one field (or none shared), the nearest right item (by
``monotonic_time``, else record order); ``closest`` is that candidate's event id and the
mismatches name each ``on`` field that differed on it.

>>> m = [Event("mutation", {}, "e0", operation_ref="op-7", actor_ref="agent")]
>>> a = [Event("audit", {}, "e1", operation_ref="op-8", actor_ref="agent")]
>>> left = Bound("mutations", False, tuple(m), ("e0",), tuple(m), (0,), (), 1)
>>> right = Bound("audits", False, tuple(a), ("e1",), tuple(a), (1,), (), 1)
>>> print(has_matching(left, right, ("operation_ref", "actor_ref"), None)[0].reason)
... # doctest: +NORMALIZE_WHITESPACE
no 'audits' item has the same operation_ref, actor_ref;
closest e1 differs on operation_ref (expected 'op-7', got 'op-8')

Order relations, ``precedes`` and ``follows_within``: the right side is grouped once by its
``on`` keys, so each relation costs O(left + right) (times a log factor for the time bound).

>>> a = (Event("audit", {}, "e1", operation_ref="op-7"),)
>>> m = (Event("mutation", {}, "e2", operation_ref="op-7"),)
>>> left = Bound("audits", False, a, ("e1",), a, (1,), (), 1)
>>> right = Bound("mutations", False, m, ("e2",), m, (0,), (), 1)
>>> print(precedes(left, right, ("operation_ref",))[0].reason)
no 'mutations' item with the same operation_ref occurs after it (the last one is e2)
"""

from __future__ import annotations

import bisect
import itertools
from collections.abc import Callable, Mapping, Sequence
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, Final, Literal, Protocol, TypeVar, overload

import attrs

from agent_asserts._registry import Registry
from agent_asserts._values import MISSING
from agent_asserts.contract.bindings import Bound
from agent_asserts.contract.grammar import (
    EVENT_FIELDS,
    SET_FIELDS,
    field_value,
    format_within,
    hash_key,
    parse_item_path,
)
from agent_asserts.contract.verdicts import ItemVerdict, shortened
from agent_asserts.errors import AgentAssertsError, RecordLacks, Unavailable
from agent_asserts.judges import (
    TEMPLATE_VERSION,
    JudgeRequest,
    JudgeResponseError,
    call_judge,
    render_prompt,
)
from agent_asserts.matching import M, Matcher, Mismatch, as_matcher, render
from agent_asserts.record import Event

if TYPE_CHECKING:
    from agent_asserts.contract.model import Requirement
    from agent_asserts.judges import Judge


JSONSCHEMA_MISSING = str(
    Unavailable("matches_schema needs the optional jsonschema package", extra="jsonschema")
)

SHOWN_MISMATCHES = 3


class EvaluatorFailed(AgentAssertsError):
    """A custom matcher or the judge failed; the result is ``evaluator_error``.

    >>> EvaluatorFailed("boom", force_gate=True).force_gate
    True
    """

    def __init__(self, message: str, *, force_gate: bool = False) -> None:
        super().__init__(message)
        self.force_gate = force_gate


def _from_mismatches(label: str, found: list[Mismatch], form: Any) -> ItemVerdict:
    if not found:
        return ItemVerdict(label, True, f"got {render(form)}")
    reason = shortened([str(m) for m in found], most=SHOWN_MISMATCHES)
    return ItemVerdict(label, False, reason, found)


def schema_validator(schema: Any) -> Any:
    """A jsonschema validator for ``schema``; :class:`RecordLacks` without the extra."""
    try:
        import jsonschema
    except ImportError:
        raise RecordLacks(JSONSCHEMA_MISSING) from None
    cls = jsonschema.validators.validator_for(schema)
    try:
        cls.check_schema(schema)
    except jsonschema.SchemaError as exc:
        raise RecordLacks(f"the schema in right is not valid: {exc.message}") from None
    return cls(schema)


def _schema_mismatches(validator: Any, form: Any) -> list[Mismatch]:
    found = []
    for error in sorted(validator.iter_errors(form), key=lambda e: list(map(str, e.path))):
        path = "$" + "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in error.path)
        found.append(Mismatch(path, error.schema, error.instance, error.message))
    return found


Tester = Callable[[Any, str], ItemVerdict]
"""Tests one item: ``(form, label) -> ItemVerdict``; a satisfied item's reason shows its value
(what ``none`` reports), and ``closest`` stays None (``right`` is a literal, not a candidate)."""


def matcher_tester(matcher: Matcher) -> Tester:
    """The per-item test of a value relation that a matcher decides (``equals``,
    ``contains``, ``matcher: exact`` or ``structural``).

    The test raises :class:`EvaluatorFailed` when the matcher raises (a ``M.satisfies``
    predicate, say).

    >>> from agent_asserts.matching import M
    >>> matcher_tester(M.contains("A1049"))("Refund for A1049", "e4").ok
    True
    """

    def test(form: Any, label: str) -> ItemVerdict:
        try:
            found = matcher.explain(form)
        except Exception as exc:
            message = f"a matcher raised {type(exc).__name__}: {exc} ({label})"
            raise EvaluatorFailed(message) from exc
        return _from_mismatches(label, found, form)

    return test


def schema_tester(schema: Any) -> Tester:
    """The per-item test of ``matches_schema``.

    Raises:
        RecordLacks: jsonschema is not installed, or ``schema`` is not a valid schema.
    """
    validator = schema_validator(schema)

    def test(form: Any, label: str) -> ItemVerdict:
        return _from_mismatches(label, _schema_mismatches(validator, form), form)

    return test


# Custom matchers: the registry and the tester that calls them.


class MatcherFn(Protocol):
    """The protocol of a custom matcher (the ``contract matchers`` extension point):
    ``fn(actual, expected) -> bool``, registered with :func:`register_matcher`.

    >>> def positive(actual: object, expected: object) -> bool:
    ...     return isinstance(actual, int) and actual > 0
    >>> matcher: MatcherFn = positive
    >>> matcher(3, None)
    True
    """

    def __call__(self, actual: Any, expected: Any, /) -> bool:
        """True when ``actual`` (one left item) satisfies ``expected`` (``right``)."""
        ...


F = TypeVar("F", bound=MatcherFn)

MATCHERS: Registry[MatcherFn] = Registry("custom matcher")
"""The registered custom matchers by name (there are no built-in ones)."""


@overload
def register_matcher(name: str) -> Callable[[F], F]: ...
@overload
def register_matcher(name: str, fn: F) -> F: ...


def register_matcher(name: str, fn: F | None = None) -> F | Callable[[F], F]:
    """Register ``fn`` as the custom matcher ``name`` (the latest registration wins).

    Use it as a call, ``register_matcher("name", fn)``, or as a decorator,
    ``@register_matcher("name")``; either way it returns ``fn``.

    Args:
        name: The name contracts give in ``custom:``.
        fn: ``fn(actual, expected) -> bool``.

    Returns:
        ``fn`` (or a decorator that registers and returns it).

    Raises:
        TypeError: ``name`` is not a non-empty string or ``fn`` is not callable.

    >>> register_matcher("positive", lambda actual, expected: actual > 0)  # doctest: +ELLIPSIS
    <function <lambda> at ...>
    >>> unregister_matcher("positive")
    """
    if not isinstance(name, str) or not name:
        raise TypeError(f"'name' must be a non-empty string (got {name!r})")

    def register(function: F) -> F:
        if not callable(function):
            raise TypeError(f"a custom matcher must be callable (got {function!r})")
        MATCHERS.add(name, function)
        return function

    return register if fn is None else register(fn)


def unregister_matcher(name: str) -> None:
    """Forget the custom matcher ``name`` (no error when it is not registered).

    >>> unregister_matcher("never_registered")
    """
    if name in MATCHERS:
        MATCHERS.remove(name)


def get_matcher(name: str) -> MatcherFn | None:
    """The custom matcher registered as ``name``, or None.

    >>> get_matcher("never_registered") is None
    True
    """
    return MATCHERS.get(name)


def registered_matchers() -> tuple[str, ...]:
    """The registered names, sorted.

    >>> isinstance(registered_matchers(), tuple)
    True
    """
    return tuple(sorted(MATCHERS))


def custom_tester(name: str, right: Any) -> Tester:
    """The per-item test of ``matcher: custom``: the function registered as ``name``.

    Raises:
        RecordLacks: No custom matcher is registered as ``name``.

    The test raises :class:`EvaluatorFailed` when the function raises or returns something
    not a bool.

    >>> custom_tester("no_such_matcher", None)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    agent_asserts.errors.RecordLacks: no custom matcher is registered as 'no_such_matcher' ...
    """
    fn = get_matcher(name)
    if fn is None:
        known = ", ".join(repr(n) for n in registered_matchers()) or "none"
        raise RecordLacks(
            f"no custom matcher is registered as {name!r} (registered: {known}); "
            f"call register_matcher({name!r}, fn)"
        )

    def test(form: Any, label: str) -> ItemVerdict:
        try:
            answer = fn(form, right)
        except Exception as exc:
            raise EvaluatorFailed(
                f"custom matcher {name!r} raised {type(exc).__name__}: {exc} ({label})"
            ) from exc
        if not isinstance(answer, bool):
            raise EvaluatorFailed(
                f"custom matcher {name!r} returned {answer!r} for {label}; "
                f"it must return True or False"
            )
        if answer:
            return ItemVerdict(label, True, f"custom matcher {name!r} returned True")
        reason = f"custom matcher {name!r} returned False"
        return ItemVerdict(label, False, reason, (Mismatch("$", right, form, reason),))

    return test


def _ids(bound: Bound) -> list[str]:
    return [label for label, event in zip(bound.labels, bound.events, strict=True) if event]


def judged_verdicts(
    req: Requirement, left: Bound, grounding: Mapping[str, Bound], judge: Judge | None
) -> tuple[list[ItemVerdict], dict[str, Any]]:
    """Ask ``judge`` about every left item; returns the verdicts and evaluator details.

    Raises:
        RecordLacks: No judge is configured.
        EvaluatorFailed: The judge raised or returned an invalid response (always gates).
    """
    if judge is None:
        raise RecordLacks("no judge configured")
    criterion = str(req.right)
    context = {name: bound.forms() for name, bound in grounding.items()}
    context_ids = [i for bound in grounding.values() for i in _ids(bound)]
    verdicts: list[ItemVerdict] = []
    explanations: list[str] = []
    for item, label, event in zip(left.forms(), left.labels, left.events, strict=True):
        data: dict[str, Any] = {"value": item}
        if req.matcher == "grounded_semantic":
            data["grounding"] = context
        ids = ([label] if event is not None else []) + context_ids
        request = JudgeRequest(
            criterion,
            evidence=data,
            prompt=render_prompt(criterion, data),
            event_ids=tuple(dict.fromkeys(ids)),
        )
        try:
            response = call_judge(judge, request)
        except JudgeResponseError as exc:
            raise EvaluatorFailed(
                f"the judge returned an invalid response: {exc}", force_gate=True
            ) from exc
        except Exception as exc:
            raise EvaluatorFailed(
                f"the judge raised {type(exc).__name__}: {exc}", force_gate=True
            ) from exc
        passed = response.passed if response.passed is not None else response.score >= 1.0
        explanations.append(response.explanation)
        reason = f"judge score {response.score:.2f}" + (
            f": {response.explanation}" if response.explanation else ""
        )
        verdicts.append(ItemVerdict(label, passed, reason))
    info = {
        "template_version": TEMPLATE_VERSION,
        "judge_calls": len(verdicts),
        "explanations": explanations,
    }
    return verdicts, info


Key = tuple[Any, ...]
"""The hashable values of an item's ``on`` fields, in ``on`` order."""


def _as_is(value: Any) -> Any:
    return value


class OnKeys:
    """Reads the ``on`` fields of items: raw values (for messages) and hashable keys.

    >>> OnKeys(("entity_ref", "turn")).raw(Event("audit", {}, "e1", entity_refs=("order:A1",)))
    [frozenset({'order:A1'}), MISSING]
    """

    def __init__(self, on: Sequence[str]) -> None:
        self.on = tuple(on)
        self.parts = [() if f in SET_FIELDS else parse_item_path(f) for f in self.on]
        self.direct = all(f in EVENT_FIELDS or f in SET_FIELDS for f in self.on)
        self.sets = [f in SET_FIELDS for f in self.on]

    def _read(self, item: Any, convert: Callable[[Any], Any]) -> list[Any]:
        out: list[Any] = []
        if self.direct and type(item) is Event:  # the fast path for events
            for field, is_set in zip(self.on, self.sets, strict=True):
                if is_set:
                    refs = item.entity_refs
                    out.append(frozenset(refs) if refs else MISSING)
                else:
                    value = getattr(item, field)
                    out.append(MISSING if value is None else convert(value))
            return out
        for field, parts in zip(self.on, self.parts, strict=True):
            value = field_value(item, field, parts)
            out.append(MISSING if value is None or value is MISSING else convert(value))
        return out

    def raw(self, item: Any) -> list[Any]:
        """The field values (``MISSING`` where the item records none)."""
        return self._read(item, _as_is)

    def hashed(self, item: Any) -> list[Any]:
        """Per field, the hashable key, or ``MISSING`` where the item records none."""
        return self._read(item, hash_key)

    def key(self, item: Any) -> tuple[Key | None, str | None]:
        """The hashable key, or None and the first field the item does not record."""
        return self.key_of(self.hashed(item))

    def key_of(self, hashed: list[Any]) -> tuple[Key | None, str | None]:
        """:meth:`key` from already hashed values."""
        if MISSING in hashed:
            return None, self.on[next(i for i, v in enumerate(hashed) if v is MISSING)]
        return tuple(hashed), None


def grouped(keys: OnKeys | None, right: Bound) -> dict[Key, list[int]]:
    """Per key, the indexes of the right items having it (one group ``()`` without ``on``).

    >>> right = Bound("b", False, ("x", "y"), ("e1", "e2"), (None, None), (0, 1), (), 2)
    >>> grouped(None, right)
    {(): [0, 1]}
    """
    groups: dict[Key, list[int]] = {}
    for i, item in enumerate(right.items):
        key: Key | None = () if keys is None else keys.key(item)[0]
        if key is not None:
            groups.setdefault(key, []).append(i)
    return groups


def each_keyed(
    left: Bound,
    keys: OnKeys | None,
    judge: Callable[[int, str, Key], ItemVerdict],
    *,
    unkeyed: str = "",
) -> list[ItemVerdict]:
    """One verdict per left item: ``judge(index, label, key)``, or a failure for an item that
    does not record an ``on`` field (``it records no turn`` followed by ``unkeyed``).

    >>> left = Bound("a", False, ("x",), ("e1",), (None,), (0,), (), 1)
    >>> each_keyed(left, None, lambda n, label, key: ItemVerdict(label, True))[0].ok
    True
    """
    out: list[ItemVerdict] = []
    for n, item in enumerate(left.items):
        label = left.labels[n]
        if keys is None:
            out.append(judge(n, label, ()))
            continue
        key, lacking = keys.key(item)
        if key is None:
            out.append(ItemVerdict(label, False, f"it records no {lacking}{unkeyed}"))
        else:
            out.append(judge(n, label, key))
    return out


def times(bound: Bound, op: str) -> list[float]:
    """The ``monotonic_time`` of each item's event.

    Raises:
        RecordLacks: An event has no ``monotonic_time`` (or an item no event).

    >>> times(Bound("b", False, ("x",), ("e1",), (Event("a", {}, "e1", monotonic_time=2),),
    ...             (0,), (), 1), "follows_within")
    [2.0]
    """
    out: list[float] = []
    missing: list[str] = []
    for event, label in zip(bound.events, bound.labels, strict=True):
        t = None if event is None else event.monotonic_time
        if t is None:
            missing.append(label)
        else:
            out.append(float(t))
    if missing:
        raise RecordLacks(
            f"{op} needs monotonic_time on every event; {bound.name!r} has events without "
            f"one: {shortened(missing, ', ')}"
        )
    return out


def shown(value: Any) -> str:
    """A field value in a message (sets sorted).

    >>> shown(frozenset({"b", "a"}))
    "['a', 'b']"
    """
    return render(sorted(value) if isinstance(value, frozenset) else value)


MAX_SUBSET_FIELDS = 6
"""Up to this many ``on`` fields, the closest candidate is the one sharing the most fields."""


def _event_id(bound: Bound, index: int) -> str | None:
    """The event id of a right item, or None when it is not an event (a delta entry)."""
    return bound.labels[index] if bound.events[index] is not None else None


class _Order:
    """Finds the right item nearest to a left item: by ``monotonic_time`` when both record
    one, else by record order, else the first right item (built once, bisected per item)."""

    def __init__(self, right: Bound) -> None:
        self.by_time = self._sorted([None if e is None else e.monotonic_time for e in right.events])
        self.by_order = self._sorted(list(right.positions))

    @staticmethod
    def _sorted(values: list[Any]) -> tuple[list[float], list[int]] | None:
        if not values or any(v is None for v in values):
            return None
        order = sorted(range(len(values)), key=values.__getitem__)
        return [float(values[i]) for i in order], order

    @staticmethod
    def _bisect(table: tuple[list[float], list[int]], at: float) -> int:
        keys, order = table
        best = bisect.bisect_left(keys, at)
        if best == len(keys) or (best > 0 and at - keys[best - 1] <= keys[best] - at):
            best -= 1
        return order[best]

    def nearest(self, left: Bound, n: int) -> int:
        event = left.events[n]
        t = None if event is None else event.monotonic_time
        if t is not None and self.by_time is not None:
            return self._bisect(self.by_time, float(t))
        position = left.positions[n]
        if position is not None and self.by_order is not None:
            return self._bisect(self.by_order, float(position))
        return 0


class _Closest:
    """Explains a left key with no exact match: the closest candidate is the right item
    sharing the most ``on`` fields, else (one field, or no field shared) the nearest one."""

    def __init__(self, keys: OnKeys, left: Bound, right: Bound, hashed: list[list[Any]]) -> None:
        self.keys = keys
        self.left = left
        self.right = right
        self.hashed = hashed
        n = len(keys.on)
        sizes = range(n - 1, 0, -1) if n <= MAX_SUBSET_FIELDS else [1]
        self.subsets = [s for size in sizes for s in itertools.combinations(range(n), size)]
        self.index: dict[tuple[int, ...], dict[Key, int]] = {}
        self.order: _Order | None = None

    def _table(self, subset: tuple[int, ...]) -> dict[Key, int]:
        table = self.index.get(subset)
        if table is None:
            table = {}
            for i, values in enumerate(self.hashed):
                key = tuple(values[j] for j in subset)
                if MISSING not in key:
                    table.setdefault(key, i)
            self.index[subset] = table
        return table

    def _sharing(self, values: list[Any]) -> int | None:
        for subset in self.subsets:
            hit = self._table(subset).get(tuple(hash_key(values[j]) for j in subset))
            if hit is not None:
                return hit
        return None

    def explain(self, n: int, label: str, values: list[Any]) -> ItemVerdict:
        fields = ", ".join(self.keys.on)
        name = self.right.name
        if not self.right.items:
            return ItemVerdict(label, False, f"selection {name!r} is empty")
        hit = self._sharing(values)
        nearest = hit is None
        if hit is None:
            self.order = self.order or _Order(self.right)
            hit = self.order.nearest(self.left, n)
        other = self.keys.raw(self.right.items[hit])
        mismatches = [
            Mismatch(f"$.{field}", mine, theirs, f"expected {shown(mine)}, got {shown(theirs)}")
            for field, mine, theirs in zip(self.keys.on, values, other, strict=True)
            if theirs is MISSING or hash_key(mine) != hash_key(theirs)
        ]
        differs = ", ".join(
            f"{m.path[2:]} (expected {shown(m.expected)}, got {shown(m.actual)})"
            for m in mismatches
        )
        candidate = self.right.labels[hit] + (" (the nearest)" if nearest else "")
        lead = (
            f"no {name!r} item shares any of {fields} with it"
            if nearest and len(values) > 1
            else f"no {name!r} item has the same {fields}"
        )
        reason = f"{lead}; closest {candidate} differs on {differs}"
        return ItemVerdict(label, False, reason, mismatches, _event_id(self.right, hit))


def has_matching(
    left: Bound, right: Bound, on: Sequence[str], within: float | None
) -> list[ItemVerdict]:
    """Each left item has a right item with equal ``on`` fields (and, with ``within``, no more
    than that many seconds away in either direction).

    Args:
        left: The items that each need a partner.
        right: The candidate partners.
        on: The fields a partner must record equally.
        within: The most seconds between an item and its partner, or None for no bound.

    Returns:
        One verdict per left item.

    Raises:
        RecordLacks: ``within`` is set and an event has no ``monotonic_time``.
    """
    keys = OnKeys(on)
    left_times = times(left, "has_matching with within") if within is not None else []
    right_times = times(right, "has_matching with within") if within is not None else []
    hashed = [keys.hashed(item) for item in right.items]
    index: dict[Key, list[int]] = {}
    for i, values in enumerate(hashed):
        key, _ = keys.key_of(values)
        if key is not None:
            index.setdefault(key, []).append(i)
    ordered: dict[Key, list[float]] = {}  # per key, the times of its bucket, sorted once
    if within is not None:
        for key, bucket in index.items():
            bucket.sort(key=right_times.__getitem__)
            ordered[key] = [right_times[i] for i in bucket]
    closest: _Closest | None = None

    def judge(n: int, label: str, key: Key) -> ItemVerdict:
        nonlocal closest
        found = index.get(key)
        if found is None:
            closest = closest or _Closest(keys, left, right, hashed)
            return closest.explain(n, label, keys.raw(left.items[n]))
        if within is None:
            cid = right.labels[found[0]]
            reason = f"has a matching {right.name!r} item {cid}"
            return ItemVerdict(label, True, reason, closest=_event_id(right, found[0]))
        return _nearest(label, left_times[n], found, ordered[key], right, within)

    unkeyed = f", so no {right.name!r} item can match it"
    return each_keyed(left, keys, judge, unkeyed=unkeyed)


def _nearest(
    label: str, t: float, bucket: list[int], ordered: list[float], right: Bound, within: float
) -> ItemVerdict:
    best = bisect.bisect_left(ordered, t)  # the first at or after t; the one before may be nearer
    if best == len(ordered) or (best > 0 and t - ordered[best - 1] <= ordered[best] - t):
        best -= 1
    distance = abs(ordered[best] - t)
    cid = right.labels[bucket[best]]
    if distance <= within:
        reason = f"has a matching {right.name!r} item {cid} ({distance:g}s away)"
        return ItemVerdict(label, True, reason, closest=cid)
    reason = (
        f"the nearest {right.name!r} item with the same keys, {cid}, is {distance:g}s away "
        f"(more than {format_within(within)})"
    )
    mismatch = Mismatch(
        "$.monotonic_time", f"within {format_within(within)} of {t:g}", ordered[best], reason
    )
    return ItemVerdict(label, False, reason, (mismatch,), cid)


def _same_text(on: Sequence[str]) -> str:
    return f" with the same {', '.join(on)}" if on else ""


def precedes(left: Bound, right: Bound, on: Sequence[str]) -> list[ItemVerdict]:
    """Each left event occurs (in record order) before some right event (with equal ``on``).

    Args:
        left: The events that must come first.
        right: The events that must come after them.
        on: The fields the two events must record equally (none: any right event).

    Returns:
        One verdict per left item.
    """
    keys = OnKeys(on) if on else None
    last: dict[Key, int] = {}
    for key, members in grouped(keys, right).items():
        last[key] = max(members, key=lambda i: right.positions[i] or 0)
    same = _same_text(on)

    def judge(n: int, label: str, key: Key) -> ItemVerdict:
        found = last.get(key)
        if found is None:
            return ItemVerdict(label, False, f"no {right.name!r} item{same} exists")
        cid = right.labels[found]
        if (right.positions[found] or 0) > (left.positions[n] or 0):
            return ItemVerdict(
                label, True, f"{right.name!r} item {cid} occurs after it", closest=cid
            )
        reason = f"no {right.name!r} item{same} occurs after it (the last one is {cid})"
        return ItemVerdict(label, False, reason, closest=cid)

    return each_keyed(left, keys, judge)


def follows_within(
    left: Bound, right: Bound, on: Sequence[str], within: float
) -> list[ItemVerdict]:
    """Each left event is followed (in record order) by some right event (with equal ``on``)
    whose ``monotonic_time`` is at most ``within`` seconds later.

    Args:
        left: The events that must be followed.
        right: The events that must follow them.
        on: The fields the two events must record equally (none: any right event).
        within: The most seconds between a left event and the right event following it.

    Returns:
        One verdict per left item.

    Raises:
        RecordLacks: An event on either side has no ``monotonic_time``.
    """
    left_times = times(left, "follows_within")
    right_times = times(right, "follows_within")
    keys = OnKeys(on) if on else None
    tables: dict[Key, tuple[list[int], list[int]]] = {}
    for key, members in grouped(keys, right).items():
        members.sort(key=lambda i: right.positions[i] or 0)
        earliest = members[:]  # suffix minimum of time: the earliest right item from j on
        for j in range(len(members) - 2, -1, -1):
            if right_times[earliest[j + 1]] <= right_times[members[j]]:
                earliest[j] = earliest[j + 1]
        tables[key] = ([right.positions[i] or 0 for i in members], earliest)
    same = _same_text(on)
    bound = format_within(within)

    def judge(n: int, label: str, key: Key) -> ItemVerdict:
        table = tables.get(key)
        at = -1 if table is None else bisect.bisect_right(table[0], left.positions[n] or 0)
        if table is None or at >= len(table[0]):
            return ItemVerdict(label, False, f"no {right.name!r} item{same} follows it")
        first = table[1][at]
        delay = right_times[first] - left_times[n]
        cid = right.labels[first]
        if delay <= within:
            reason = f"{right.name!r} item {cid} follows it after {delay:g}s"
            return ItemVerdict(label, True, reason, closest=cid)
        reason = (
            f"the earliest {right.name!r} item{same} after it, {cid}, follows after "
            f"{delay:g}s (more than {bound})"
        )
        at_most = f"at most {left_times[n] + within:g}"
        mismatch = Mismatch("$.monotonic_time", at_most, right_times[first], reason)
        return ItemVerdict(label, False, reason, (mismatch,), cid)

    return each_keyed(left, keys, judge)


# -- the operators: each op's wording and how it judges the items of left ----------------


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
    "JSONSCHEMA_MISSING",
    "MATCHER_OPERATORS",
    "MAX_SUBSET_FIELDS",
    "OPERATORS",
    "EvaluatorFailed",
    "Key",
    "MatcherFn",
    "OnKeys",
    "Operator",
    "Relating",
    "RightKind",
    "Tester",
    "Verdicts",
    "custom_tester",
    "each_item",
    "each_keyed",
    "follows_within",
    "get_matcher",
    "grouped",
    "has_matching",
    "judged_verdicts",
    "matched_by",
    "matcher_tester",
    "operator_of",
    "precedes",
    "register_matcher",
    "registered_matchers",
    "row_of",
    "schema_tester",
    "schema_validator",
    "shown",
    "times",
    "unregister_matcher",
]
