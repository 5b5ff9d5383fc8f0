"""Matchers of one value: regex, numeric comparisons, ranges, approximate numbers, value sets,
and the matchers without structure (anything, non-empty, absent, a Python predicate).

>>> from agent_asserts._values import MISSING
>>> from agent_asserts.matching import M
>>> M.regex("^A\\\\d+").matches("A1049"), M.between(1, 3).matches(3), M.gt(1).matches(True)
(True, True, False)
>>> M.anything().matches(MISSING), M.non_empty().matches(""), M.absent().matches(None)
(True, False, False)

**Pattern search under a time limit** (:func:`search`): the one place a regular expression is
run on data. It is ``compiled.search(text)``: the ``re`` engine, whose semantics the docs
describe. Under a time limit (``run_case(timeout=...)``, ``agent-asserts check --timeout``,
``evaluate_many(timeout=...)``) armed in the main thread, the limit's signal interrupts
``re`` itself. Under a limit armed in another thread (thread pools, the live processors),
where no signal can reach the match and ``re`` would hold the GIL (freezing every thread)
until it is done, the same pattern — with its flags, inline (``(?i)``, ``(?s)``, ``(?m)``,
``(?x)``, ``(?a)``) or given to ``re.compile`` — runs on the ``regex`` engine (the ``regex``
extra, in its version 0 behaviour, which is ``re``'s), without holding the GIL: first in the
evaluating thread for at most :data:`QUICK_SEARCH` seconds of processor time, then, if it is
not done, in a helper thread that the evaluating thread waits for at most the time left on
the clock. Past it the case's ``TimeLimitExceeded`` is raised, on time; the helper is
abandoned and stops at ``regex``'s own timeout (the time that was left, counted in processor
time). Without the ``regex`` extra such a search cannot be bounded: it raises
:class:`~agent_asserts.errors.Unavailable` (the check is an ``evaluator_error``).

>>> search(re.compile("A\\\\d+"), "order A1049").group(0)
'A1049'
"""

from __future__ import annotations

import functools
import json
import math
import operator
import re
import threading
import time
from collections.abc import Callable, Mapping
from typing import Any, Final

import attrs

from agent_asserts._deadline import expired, re_interruptible, regex_engine, remaining
from agent_asserts._values import MISSING
from agent_asserts.errors import Unavailable
from agent_asserts.matching.base import ROOT, Matcher, MatcherError, Mismatch, value_to_data
from agent_asserts.matching.values import (
    data_key,
    each_within_depth,
    is_list,
    is_number,
    nested_too_deeply,
    render,
    strict_equal,
)

QUICK_SEARCH: Final = 0.02
"""Seconds of processor time a search under a worker-thread limit gets in the evaluating thread
before it moves to a helper thread that is waited for on the clock."""

_FLAGS: Final = ("IGNORECASE", "MULTILINE", "DOTALL", "VERBOSE", "ASCII", "UNICODE")


def engine_flags(compiled: re.Pattern[str], engine: Any) -> int:
    """The ``regex`` flags of a compiled ``re`` pattern (inline flags included).

    >>> import regex
    >>> engine_flags(re.compile("(?is)a"), regex) == regex.I | regex.S | regex.U
    True
    """
    flags = 0
    for name in _FLAGS:
        if compiled.flags & getattr(re, name):
            flags |= getattr(engine, name)
    return flags


@functools.lru_cache(maxsize=256)
def _timed_engine(pattern: str, flags: int) -> Any:
    engine = regex_engine()  # imported when the limit was armed: nothing is imported here
    if engine is None:
        return None
    try:
        return engine.compile(pattern, flags | engine.VERSION0)
    except engine.error as exc:  # a pattern ``re`` accepts but ``regex`` does not
        return exc


def search(compiled: re.Pattern[str], text: str) -> Any:
    """``compiled.search(text)``, bounded by the armed time limit (if any).

    Returns the match object (``re.Match`` or ``regex.Match``, same ``group``/``span``) or
    None.

    Raises:
        TimeLimitExceeded: Past the armed limit.
        Unavailable: Under a limit armed outside the main thread, without the ``regex`` extra
            (or for a pattern ``regex`` cannot compile): such a search could not be stopped.

    >>> search(re.compile("b+"), "abbc").span(), search(re.compile("x"), "abc")
    ((1, 3), None)
    """
    if re_interruptible():
        return compiled.search(text)
    engine = _timed_engine(compiled.pattern, engine_flags(compiled, regex_engine() or re))
    if engine is None or isinstance(engine, Exception):
        why = "" if engine is None else f" (the regex engine cannot compile it: {engine})"
        raise Unavailable(
            "matching a regular expression under a time limit outside the main thread needs "
            f"the regex engine{why}",
            extra="regex",
        )
    left = remaining() or 0.0
    try:
        return engine.search(text, timeout=max(min(QUICK_SEARCH, left), 1e-3), concurrent=True)
    except TimeoutError:
        if left <= QUICK_SEARCH:
            raise expired() from None
    return _search_in_helper(engine, text)


def _search_in_helper(engine: Any, text: str) -> Any:
    """A long search in a helper thread, waited for until the deadline (on the clock).

    ``regex`` counts its ``timeout`` in the process's processor time, which runs faster than
    the clock when other threads are busy: a search stopped that way before the deadline is
    started again with the time left; once the evaluating thread stops waiting, the helper
    ends with its current attempt.
    """
    left = remaining() or 0.0
    deadline = time.monotonic() + left
    found: list[Any] = []
    waiting = threading.Event()
    waiting.set()

    def run() -> None:
        budget = left
        while budget > 0 and waiting.is_set():
            try:
                found.append(engine.search(text, timeout=max(budget, 1e-3), concurrent=True))
                return
            except TimeoutError:
                budget = deadline - time.monotonic()

    helper = threading.Thread(target=run, name="agent-asserts-regex", daemon=True)
    helper.start()
    helper.join(left)
    waiting.clear()
    if not found:
        raise expired()
    return found[0]


NOT_A_NUMBER: Final = " (not a number)"


def regex_subject(actual: Any) -> str | None:
    """The text a regex is searched in: a string as is, anything else JSON-encoded.

    ``json.dumps`` with default separators, ``ensure_ascii=False`` and unsorted keys; a value
    that is not JSON data is searched as ``str(value)`` (nested inside JSON data, it is encoded
    as the JSON string of ``str(value)``). ``MISSING`` gives ``None`` (never matches).

    Args:
        actual: The actual value.

    Returns:
        The text to search, or None for ``MISSING``.

    >>> regex_subject("a"), regex_subject({"n": 1, "ok": True}), regex_subject(None)
    ('a', '{"n": 1, "ok": true}', 'null')
    """
    if isinstance(actual, str):
        return actual
    if actual is MISSING or nested_too_deeply(actual):
        return None
    if not (actual is None or isinstance(actual, bool | Mapping) or is_number(actual)) and not (
        is_list(actual)
    ):
        return str(actual)
    return json.dumps(actual, ensure_ascii=False, default=str)


def compile_regex(pattern: Any, *, name: str | None = None) -> re.Pattern[str]:
    """Compile ``pattern``: the one place that validates a regular expression (``M.regex``,
    the checks' ``pattern``/``text_matches`` arguments and every loader use it).

    Args:
        pattern: The regular expression.
        name: The argument it was given as; its errors then start with ``'{name}': `` and a
            non-string is a ``TypeError``.

    Raises:
        ValueError: ``invalid regular expression '(': missing ), …``.

    >>> compile_regex("^A").pattern
    '^A'
    >>> compile_regex("(", name="pattern")
    Traceback (most recent call last):
    ...
    ValueError: 'pattern': invalid regular expression '(': missing ), ...
    """
    if not isinstance(pattern, str):
        if name is not None:
            raise TypeError(f"'{name}' must be a regular expression str (got {render(pattern)})")
        raise ValueError(f"M.regex() takes a pattern string (got {render(pattern)})")
    try:
        return re.compile(pattern)
    except re.error as exc:
        prefix = "" if name is None else f"{name!r}: "
        raise ValueError(f"{prefix}invalid regular expression {pattern!r}: {exc}") from None


_SLASHED = re.compile(r"^/(?P<inner>.+)/(?P<flags>[dgimsuyx]*)$", re.S)


def slash_hint(pattern: str) -> str:
    r"""A hint for a pattern written with slash delimiters (``/order\s+#\d+/i``, as JavaScript
    and PHP write them), whose slashes here are literal; else ``''``.

    >>> print(slash_hint("/refund/i"))
     (the pattern is wrapped in slashes, which match literal '/' here: write '(?i)refund')
    >>> slash_hint("a/b"), slash_hint("/")
    ('', '')
    """
    found = _SLASHED.match(pattern)
    if found is None:
        return ""
    flags = "".join(f for f in found["flags"] if f in "imsx")
    inner = (f"(?{flags})" if flags else "") + found["inner"]
    return f" (the pattern is wrapped in slashes, which match literal '/' here: write {inner!r})"


@attrs.frozen(repr=False)
class RegexMatcher(Matcher):
    """``M.regex(pattern)``: ``re.search`` (unanchored, case-sensitive, inline flags allowed).

    >>> from agent_asserts.matching import M
    >>> M.regex("dup.*").matches("a duplicate"), M.regex("^4").matches(42)
    (True, True)
    """

    pattern: str
    compiled: re.Pattern[str] = attrs.field(init=False, eq=False)

    @compiled.default
    def _compiled(self) -> re.Pattern[str]:
        return compile_regex(self.pattern)

    def matches(self, actual: Any) -> bool:
        subject = regex_subject(actual)
        return subject is not None and search(self.compiled, subject) is not None

    def explain(self, actual: Any, path: str = ROOT) -> list[Mismatch]:
        return [] if self.matches(actual) else self._fail(actual, path, slash_hint(self.pattern))

    def describe(self) -> str:
        return f"a match of {self.pattern!r}"

    def to_data(self) -> Any:
        return {"$regex": self.pattern}

    def __repr__(self) -> str:
        return f"M.regex({self.pattern!r})"


def check_number(name: str, value: Any) -> None:
    """Raise ``ValueError`` unless ``value`` is a number (not a bool, not NaN).

    Args:
        name: The argument's name for the message, e.g. ``M.gt()``.
        value: The argument.

    Raises:
        ValueError: When ``value`` is not a usable number.

    >>> check_number("M.gt()", "x")
    Traceback (most recent call last):
    ...
    ValueError: M.gt() takes a number, not a bool or a string (got 'x')
    """
    if not is_number(value) or math.isnan(value):
        raise ValueError(f"{name} takes a number, not a bool or a string (got {render(value)})")


_COMPARISONS: Final[dict[str, tuple[str, Callable[[Any, Any], bool]]]] = {
    "gt": (">", operator.gt),
    "ge": (">=", operator.ge),
    "lt": ("<", operator.lt),
    "le": ("<=", operator.le),
}


def _validate_op(_: Any, __: Any, value: str) -> None:
    if value not in _COMPARISONS:
        raise ValueError(f"comparison must be one of gt, ge, lt, le (got {value!r})")


def _validate_bound(instance: Any, __: Any, value: Any) -> None:
    check_number(f"M.{instance.op}()", value)


@attrs.frozen(repr=False)
class CompareMatcher(Matcher):
    """``M.gt/ge/lt/le(x)``: a number compared with ``x`` (bools are not numbers).

    >>> from agent_asserts.matching import M
    >>> M.ge(3).matches(3), M.lt(3).matches("2")
    (True, False)
    """

    op: str = attrs.field(validator=_validate_op)
    bound: Any = attrs.field(validator=_validate_bound, eq=data_key)

    def matches(self, actual: Any) -> bool:
        return is_number(actual) and _COMPARISONS[self.op][1](actual, self.bound)

    def explain(self, actual: Any, path: str = ROOT) -> list[Mismatch]:
        if self.matches(actual):
            return []
        return self._fail(actual, path, "" if is_number(actual) else NOT_A_NUMBER)

    def describe(self) -> str:
        return f"a number {_COMPARISONS[self.op][0]} {self.bound!r}"

    def to_data(self) -> Any:
        return {f"${self.op}": self.bound}

    def __repr__(self) -> str:
        return f"M.{self.op}({self.bound!r})"


@attrs.frozen(repr=False)
class BetweenMatcher(Matcher):
    """``M.between(low, high)``: a number with ``low <= n <= high``.

    >>> from agent_asserts.matching import M
    >>> M.between(1, 3).matches(1), M.between(1, 3).matches(3.5)
    (True, False)
    """

    low: Any = attrs.field(eq=data_key)
    high: Any = attrs.field(eq=data_key)

    def __attrs_post_init__(self) -> None:
        check_number("M.between()", self.low)
        check_number("M.between()", self.high)
        if self.low > self.high:
            raise ValueError(f"M.between() needs low <= high (got {self.low!r}, {self.high!r})")

    def matches(self, actual: Any) -> bool:
        return is_number(actual) and bool(self.low <= actual <= self.high)

    def explain(self, actual: Any, path: str = ROOT) -> list[Mismatch]:
        if self.matches(actual):
            return []
        return self._fail(actual, path, "" if is_number(actual) else NOT_A_NUMBER)

    def describe(self) -> str:
        return f"a number between {self.low!r} and {self.high!r}"

    def to_data(self) -> Any:
        return {"$between": [self.low, self.high]}

    def __repr__(self) -> str:
        return f"M.between({self.low!r}, {self.high!r})"


def _check_tolerance(name: str, value: Any) -> None:
    if value is not None and (not is_number(value) or not value >= 0):
        raise ValueError(f"M.approx() {name} must be a number >= 0 (got {render(value)})")


@attrs.frozen(repr=False)
class ApproxMatcher(Matcher):
    """``M.approx(x, rel=None, abs=None)``: ``math.isclose`` (defaults rel=1e-9, abs=0).

    >>> from agent_asserts.matching import M
    >>> M.approx(0.3).matches(0.1 + 0.2), M.approx(1, abs=0.5).matches(1.4)
    (True, True)
    """

    value: Any = attrs.field(eq=data_key)
    rel: Any = attrs.field(default=None, eq=data_key)
    abs: Any = attrs.field(default=None, eq=data_key)

    def __attrs_post_init__(self) -> None:
        check_number("M.approx()", self.value)
        _check_tolerance("rel", self.rel)
        _check_tolerance("abs", self.abs)

    @property
    def tolerances(self) -> tuple[float, float]:
        """The effective ``(rel_tol, abs_tol)``.

        >>> ApproxMatcher(1.0).tolerances, ApproxMatcher(1.0, rel=0.01).tolerances
        ((1e-09, 0.0), (0.01, 0.0))
        """
        return (1e-9 if self.rel is None else self.rel, 0.0 if self.abs is None else self.abs)

    def matches(self, actual: Any) -> bool:
        if not is_number(actual):
            return False
        rel_tol, abs_tol = self.tolerances
        return math.isclose(actual, self.value, rel_tol=rel_tol, abs_tol=abs_tol)

    def explain(self, actual: Any, path: str = ROOT) -> list[Mismatch]:
        if self.matches(actual):
            return []
        return self._fail(actual, path, "" if is_number(actual) else NOT_A_NUMBER)

    def describe(self) -> str:
        rel_tol, abs_tol = self.tolerances
        return f"a number close to {self.value!r} (rel={rel_tol!r}, abs={abs_tol!r})"

    def to_data(self) -> Any:
        if self.rel is None and self.abs is None:
            return {"$approx": self.value}
        data: dict[str, Any] = {"value": self.value}
        if self.rel is not None:
            data["rel"] = self.rel
        if self.abs is not None:
            data["abs"] = self.abs
        return {"$approx": data}

    def __repr__(self) -> str:
        extra = "".join(
            f", {name}={value!r}"
            for name, value in (("rel", self.rel), ("abs", self.abs))
            if value is not None
        )
        return f"M.approx({self.value!r}{extra})"


def _check_values(name: str, values: tuple[Any, ...]) -> None:
    if not values:
        raise ValueError(f"{name} needs at least one value")
    for value in values:
        if isinstance(value, Matcher):
            raise ValueError(
                f"{name} takes plain values compared strictly (got {value!r}); "
                "use M.any_of() or M.not_(M.any_of()) to combine matchers"
            )


@attrs.frozen(repr=False)
class OneOfMatcher(Matcher):
    """``M.one_of(*values)`` (``negate=False``) and ``M.not_in(*values)`` (``negate=True``).

    Membership uses strict JSON-typed equality, so ``True`` is not one of ``(1, 2)``. Both
    need a value: ``MISSING`` matches neither.

    >>> from agent_asserts.matching import M
    >>> M.one_of(1, 2).matches(2.0), M.one_of(1, 2).matches(True), M.not_in("x").matches("y")
    (True, False, True)
    >>> [str(m) for m in M.not_in(None).explain(None)]
    ['$: expected a value that is present and not null, got None']
    """

    values: tuple[Any, ...] = attrs.field(eq=data_key, validator=each_within_depth)
    negate: bool = False

    def __attrs_post_init__(self) -> None:
        _check_values(self._name + "()", self.values)

    @property
    def _name(self) -> str:
        return "M.not_in" if self.negate else "M.one_of"

    def matches(self, actual: Any) -> bool:
        if actual is MISSING:
            return False
        return any(strict_equal(v, actual) for v in self.values) != self.negate

    def explain(self, actual: Any, path: str = ROOT) -> list[Mismatch]:
        return [] if self.matches(actual) else self._fail(actual, path)

    def describe(self) -> str:
        if self.negate and len(self.values) == 1 and self.values[0] is None:
            # M.not_in(None) is "exists" (SOP): MISSING matches no one_of/not_in either
            return "a value that is present and not null"
        return f"{'none' if self.negate else 'one'} of {render(list(self.values), 200)}"

    def to_data(self) -> Any:
        key = "$not_in" if self.negate else "$one_of"
        return {key: [value_to_data(v) for v in self.values]}

    def __repr__(self) -> str:
        return f"{self._name}({', '.join(repr(v) for v in self.values)})"


@attrs.frozen(repr=False)
class AnythingMatcher(Matcher):
    """``M.anything()`` (also ``ANY``): no constraint; even ``MISSING`` matches.

    >>> from agent_asserts.matching import M
    >>> M.anything().matches(None), M.anything().explain(42)
    (True, [])
    """

    def matches(self, actual: Any) -> bool:
        return True

    def explain(self, actual: Any, path: str = ROOT) -> list[Mismatch]:
        return []

    def describe(self) -> str:
        return "anything"

    def to_data(self) -> Any:
        return {"$anything": True}

    def __repr__(self) -> str:
        return "M.anything()"


def is_non_empty(actual: Any) -> bool:
    """The cxas ``*`` wildcard: a non-empty string/list/mapping, or any other non-null value.

    Args:
        actual: The actual value.

    Returns:
        False for ``""``, ``[]``, ``{}``, ``None`` and ``MISSING``; True otherwise (``0`` and
        ``False`` are values).

    >>> is_non_empty("x"), is_non_empty([]), is_non_empty(0), is_non_empty(None)
    (True, False, True, False)
    """
    if actual is None or actual is MISSING:
        return False
    if isinstance(actual, str | Mapping) or is_list(actual):
        return len(actual) > 0
    return True


@attrs.frozen(repr=False)
class NonEmptyMatcher(Matcher):
    """``M.non_empty()``: the cxas ``*`` wildcard (see :func:`is_non_empty`).

    >>> from agent_asserts.matching import M
    >>> M.non_empty().matches({"a": 1}), M.non_empty().matches({})
    (True, False)
    """

    def matches(self, actual: Any) -> bool:
        return is_non_empty(actual)

    def explain(self, actual: Any, path: str = ROOT) -> list[Mismatch]:
        return [] if is_non_empty(actual) else self._fail(actual, path)

    def describe(self) -> str:
        return "a non-empty value"

    def to_data(self) -> Any:
        return {"$non_empty": True}

    def __repr__(self) -> str:
        return "M.non_empty()"


@attrs.frozen(repr=False)
class AbsentMatcher(Matcher):
    """``M.absent()``: only ``MISSING`` (an absent key or state path) matches; ``None`` is a value.

    >>> from agent_asserts.matching import M, matches
    >>> matches({"a": M.absent()}, {}), matches({"a": M.absent()}, {"a": None})
    (True, False)
    """

    def matches(self, actual: Any) -> bool:
        return actual is MISSING

    def explain(self, actual: Any, path: str = ROOT) -> list[Mismatch]:
        return [] if actual is MISSING else self._fail(actual, path)

    def describe(self) -> str:
        return "absent"

    def to_data(self) -> Any:
        return {"$absent": True}

    def __repr__(self) -> str:
        return "M.absent()"


def _validate_callable(_: Any, __: Any, value: Any) -> None:
    if not callable(value):
        raise ValueError(f"M.satisfies() takes a callable (got {value!r})")


def callable_name(fn: Callable[..., Any]) -> str:
    """Name a callable for reprs: its ``__qualname__`` (``<lambda>`` for lambdas), else ``repr``.

    Args:
        fn: The callable.

    Returns:
        A short name.

    >>> callable_name(len), callable_name(lambda n: n > 1)
    ('len', '<lambda>')
    """
    name = getattr(fn, "__qualname__", None)
    return name if isinstance(name, str) else repr(fn)


@attrs.frozen(repr=False)
class SatisfiesMatcher(Matcher):
    """``M.satisfies(fn)``: ``bool(fn(actual))``; a raising predicate raises :class:`MatcherError`.

    A raising predicate is neither a pass nor a fail: the checks layer records it as an
    ``EVALUATOR_ERROR``. A missing value never satisfies (the predicate is not called): the key
    must exist.

    >>> from agent_asserts.matching import M
    >>> def is_even(n: int) -> bool:
    ...     return n % 2 == 0
    >>> M.satisfies(is_even).matches(4), M.satisfies(is_even).explain(3)[0].reason
    (True, 'expected a value satisfying is_even, got 3')
    >>> M.satisfies(is_even).matches("x")
    Traceback (most recent call last):
    ...
    agent_asserts.matching.base.MatcherError: M.satisfies(is_even) raised TypeError: ...
    """

    fn: Callable[[Any], object] = attrs.field(validator=_validate_callable)

    def matches(self, actual: Any) -> bool:
        if actual is MISSING:
            return False
        try:
            return bool(self.fn(actual))
        except Exception as exc:
            raise MatcherError(repr(self), exc) from exc

    def explain(self, actual: Any, path: str = ROOT) -> list[Mismatch]:
        return [] if self.matches(actual) else self._fail(actual, path)

    def describe(self) -> str:
        return f"a value satisfying {callable_name(self.fn)}"

    def to_data(self) -> Any:
        raise TypeError("M.satisfies(...) takes a Python callable and has no YAML/JSON form")

    def __repr__(self) -> str:
        return f"M.satisfies({callable_name(self.fn)})"


__all__ = [
    "QUICK_SEARCH",
    "AbsentMatcher",
    "AnythingMatcher",
    "ApproxMatcher",
    "BetweenMatcher",
    "CompareMatcher",
    "NonEmptyMatcher",
    "OneOfMatcher",
    "RegexMatcher",
    "SatisfiesMatcher",
    "callable_name",
    "check_number",
    "compile_regex",
    "engine_flags",
    "is_non_empty",
    "regex_subject",
    "search",
]
