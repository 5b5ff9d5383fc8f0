"""The matchers by name, written two ways: in Python, ``M`` (the namespace of matcher factories)
and ``ANY``; in YAML/JSON, the ``$``-operators (``from_data``, ``OPERATORS``, ``OperatorError``).

>>> M.partial({"amount": M.gt(0), "reason": M.regex("dup.*")})
M.partial({'amount': M.gt(0), 'reason': M.regex('dup.*')})
>>> ANY
M.anything()

The YAML/JSON form: a mapping whose keys all start with ``$`` is an operator mapping with
exactly one key (``{$regex: "^A"}``); a key ``$$name`` is the literal key ``$name``; mixing
operator keys and plain keys in one mapping is an error. ``Matcher.to_data()`` writes this form, and
``from_data(m.to_data()) == m``.

>>> from_data({"amount": {"$gt": 3}, "sku": {"$regex": "^A"}, "$$ref": 1})
{'amount': M.gt(3), 'sku': M.regex('^A'), '$ref': 1}
>>> from_data({"$betwen": [1, 3]})
Traceback (most recent call last):
...
agent_asserts.matching.operators.OperatorError: $betwen: unknown operator '$betwen' (did you ...
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from types import MappingProxyType
from typing import Any, Final

from agent_asserts._boundary import guard
from agent_asserts._text import did_you_mean
from agent_asserts._values import depth_message, too_deep
from agent_asserts.errors import AgentAssertsError, Problem
from agent_asserts.matching.base import Matcher, unescape_key, value_to_data
from agent_asserts.matching.combinators import AllOfMatcher, AnyOfMatcher, NotMatcher
from agent_asserts.matching.lenient import LenientMatcher, LooseMatcher
from agent_asserts.matching.scalar import (
    AbsentMatcher,
    AnythingMatcher,
    ApproxMatcher,
    BetweenMatcher,
    CompareMatcher,
    NonEmptyMatcher,
    OneOfMatcher,
    RegexMatcher,
    SatisfiesMatcher,
)
from agent_asserts.matching.structural import (
    ContainsMatcher,
    ExactMatcher,
    JsonMatcher,
    PartialMatcher,
    SubsetOfMatcher,
    UnorderedMatcher,
)
from agent_asserts.matching.values import is_list, is_number, render


class M:
    """Matcher factories: ``M.regex('dup.*')``, ``M.gt(3)``, ``M.unordered([...])``…

    Every factory validates its arguments when called (``ValueError`` on a bad one) and returns
    a frozen matcher whose repr reads like the call. Plain values given to a factory follow the
    default rules (mapping: partial; list: element-wise; scalar: strict).

    >>> M.between(1, 3)
    M.between(1, 3)
    >>> M.between(3, 1)
    Traceback (most recent call last):
    ...
    ValueError: M.between() needs low <= high (got 3, 1)
    """

    def __init__(self) -> None:
        raise TypeError("M is a namespace; call its static methods, e.g. M.regex('x')")

    @staticmethod
    def partial(value: Mapping[Any, Any] | Sequence[Any]) -> Matcher:
        """Every expected key present and matching (extra keys ignored); lists element-wise.

        >>> M.partial({"a": 1}).matches({"a": 1, "b": 2})
        True
        """
        return PartialMatcher(value)

    @staticmethod
    def subset_of(mapping: Mapping[Any, Any]) -> Matcher:
        """Every actual key appears in ``mapping`` with a matching value (missing keys are fine).

        >>> M.subset_of({"a": 1, "b": 2}).matches({"a": 1}), M.subset_of({"a": 1}).matches({"c": 3})
        (True, False)
        """
        return SubsetOfMatcher(mapping)

    @staticmethod
    def exact(value: Any) -> Matcher:
        """Deep equality: no extra keys, dict key order ignored, list order kept, strict types.

        >>> M.exact({"a": [1]}).matches({"a": [1]}), M.exact({"a": 1}).matches({"a": 1, "b": 2})
        (True, False)
        """
        return ExactMatcher(value)

    @staticmethod
    def regex(pattern: str) -> Matcher:
        """``re.search(pattern, text)``; non-strings are JSON-encoded first.

        Raises:
            ValueError: For an invalid pattern (naming it and the ``re`` error).

        >>> M.regex(r"A\\d+").matches("order A1049"), M.regex("true").matches(True)
        (True, True)
        """
        return RegexMatcher(pattern)

    @staticmethod
    def satisfies(fn: Callable[[Any], object]) -> Matcher:
        """``bool(fn(actual))``; a raising ``fn`` raises ``MatcherError`` (an evaluator error).

        >>> M.satisfies(lambda s: s.isupper()).matches("OK")
        True
        """
        return SatisfiesMatcher(fn)

    @staticmethod
    def anything() -> Matcher:
        """No constraint (even a missing value matches); also available as ``ANY``.

        >>> M.anything().matches(None)
        True
        """
        return AnythingMatcher()

    @staticmethod
    def non_empty() -> Matcher:
        """A non-empty string/list/mapping, or any other non-null value (cxas ``*``).

        >>> M.non_empty().matches(0), M.non_empty().matches("")
        (True, False)
        """
        return NonEmptyMatcher()

    @staticmethod
    def absent() -> Matcher:
        """Only a missing value (absent key, absent state path) matches.

        >>> M.absent().matches(None)
        False
        """
        return AbsentMatcher()

    @staticmethod
    def all_of(*parts: Any) -> Matcher:
        """Every part matches (``m1 & m2``).

        >>> M.all_of(M.gt(1), M.lt(5)).matches(3)
        True
        """
        return AllOfMatcher(parts)

    @staticmethod
    def any_of(*parts: Any) -> Matcher:
        """At least one part matches (``m1 | m2``).

        >>> M.any_of("a", "b").matches("b")
        True
        """
        return AnyOfMatcher(parts)

    @staticmethod
    def not_(part: Any) -> Matcher:
        """The part does not match (``~m``).

        >>> M.not_(M.regex("refund")).matches("lookup")
        True
        """
        return NotMatcher(part)

    @staticmethod
    def gt(bound: float) -> Matcher:
        """A number > ``bound`` (bools are not numbers).

        >>> M.gt(3).matches(4), M.gt(3).matches("4")
        (True, False)
        """
        return CompareMatcher("gt", bound)

    @staticmethod
    def ge(bound: float) -> Matcher:
        """A number >= ``bound``.

        >>> M.ge(3).matches(3)
        True
        """
        return CompareMatcher("ge", bound)

    @staticmethod
    def lt(bound: float) -> Matcher:
        """A number < ``bound``.

        >>> M.lt(3).matches(3)
        False
        """
        return CompareMatcher("lt", bound)

    @staticmethod
    def le(bound: float) -> Matcher:
        """A number <= ``bound``.

        >>> M.le(3).matches(3.0)
        True
        """
        return CompareMatcher("le", bound)

    @staticmethod
    def between(low: float, high: float) -> Matcher:
        """A number from ``low`` to ``high``, both included.

        >>> M.between(1, 3).matches(2.5)
        True
        """
        return BetweenMatcher(low, high)

    @staticmethod
    def contains(item: Any) -> Matcher:
        """A substring of a string, a matching item of a list, or a key of a mapping.

        >>> M.contains("A10").matches("A1049"), M.contains(M.gt(2)).matches([1, 3])
        (True, True)
        """
        return ContainsMatcher(item)

    @staticmethod
    def one_of(*values: Any) -> Matcher:
        """Strictly equal to one of ``values`` (``True`` is not one of ``1, 2``).

        >>> M.one_of("paid", "refunded").matches("paid")
        True
        """
        return OneOfMatcher(values)

    @staticmethod
    def not_in(*values: Any) -> Matcher:
        """A value strictly equal to none of ``values`` (a missing value does not match).

        >>> M.not_in("shipped").matches("paid")
        True
        """
        return OneOfMatcher(values, negate=True)

    @staticmethod
    def approx(value: float, rel: float | None = None, abs: float | None = None) -> Matcher:
        """``math.isclose(actual, value, rel_tol=rel or 1e-9, abs_tol=abs or 0)``.

        >>> M.approx(0.3).matches(0.1 + 0.2), M.approx(10, rel=0.1).matches(10.9)
        (True, True)
        """
        return ApproxMatcher(value, rel, abs)

    @staticmethod
    def unordered(items: Sequence[Any]) -> Matcher:
        """Same items in any order (bag match by maximum bipartite matching).

        >>> M.unordered([M.anything(), 1]).matches([1, 2])
        True
        """
        return UnorderedMatcher(items)

    @staticmethod
    def json(expected: Any) -> Matcher:
        """Parse a JSON string, then match the parsed value by the default rules.

        >>> M.json({"ok": True}).matches('{"ok": true}')
        True
        """
        return JsonMatcher(expected)

    @staticmethod
    def lenient(value: Any) -> Matcher:
        """The cxas rules: subsets, ``"*"``, bool/number coercion, JSON strings, envelopes.

        >>> M.lenient({"quantity": 2}).matches({"quantity": "2"})
        True
        """
        return LenientMatcher(value)

    @staticmethod
    def loose(value: Any) -> Matcher:
        """The SOP ``equals``: JavaScript ``String()`` forms compared.

        >>> M.loose("123").matches(123)
        True
        """
        return LooseMatcher(value)


guard(M, "M")

ANY: Final[Matcher] = AnythingMatcher()
"""No constraint: ``ANY == M.anything()``."""


# The YAML/JSON form: $-operators, from_data, OperatorError.

PathItem = str | int
Builder = Callable[[Any], Matcher]


OperatorProblem = Problem
"""One problem in a ``$``-operator document: a :class:`~agent_asserts.errors.Problem` whose
``path`` is the key path relative to the value given to ``from_data``.

>>> str(OperatorProblem(("$between",), "expected [low, high]"))
'$between: expected [low, high]'
"""


class OperatorError(AgentAssertsError, ValueError):
    """A ``$``-operator document is malformed; carries every problem found, each with its path.

    Attributes:
        problems: Every problem, in document order.
        path: The key path of the first problem (relative to the value given to ``from_data``).
        message: The message of the first problem.

    >>> err = OperatorError("$between takes [low, high] (got 3)", ("$between",))
    >>> err.path, str(err)
    (('$between',), '$between: $between takes [low, high] (got 3)')
    """

    def __init__(
        self,
        message: str = "",
        path: Sequence[PathItem] = (),
        *,
        problems: Sequence[OperatorProblem] = (),
    ) -> None:
        self.problems: tuple[OperatorProblem, ...] = tuple(problems) or (
            OperatorProblem(tuple(path), message),
        )
        self.path: tuple[PathItem, ...] = self.problems[0].parts
        self.message: str = self.problems[0].message
        if len(self.problems) == 1:
            text = str(self.problems[0])
        else:
            text = f"{len(self.problems)} problems:\n" + "\n".join(
                f"  {problem}" for problem in self.problems
            )
        super().__init__(text)


def _flag(name: str, factory: Callable[[], Matcher]) -> Builder:
    def build(arg: Any) -> Matcher:
        if arg is not True:
            raise OperatorError(f"{name} takes true (got {render(arg)})")
        return factory()

    return build


def _list(name: str, arg: Any, what: str = "a non-empty list") -> list[Any]:
    if not is_list(arg) or not arg:
        raise OperatorError(f"{name} takes {what} (got {render(arg)})")
    return list(arg)


def _number(name: str, arg: Any) -> Any:
    if not is_number(arg):
        raise OperatorError(f"{name} takes a number (got {render(arg)})")
    return arg


def _compare(name: str, factory: Callable[[Any], Matcher]) -> Builder:
    return lambda arg: factory(_number(name, arg))


def _partial(arg: Any) -> Matcher:
    if not (isinstance(arg, Mapping) or is_list(arg)):
        raise OperatorError(f"$partial takes a mapping or a list (got {render(arg)})")
    return M.partial(arg)


def _subset_of(arg: Any) -> Matcher:
    if not isinstance(arg, Mapping):
        raise OperatorError(f"$subset_of takes a mapping (got {render(arg)})")
    return M.subset_of(arg)


def _regex(arg: Any) -> Matcher:
    if not isinstance(arg, str):
        raise OperatorError(f"$regex takes a pattern string (got {render(arg)})")
    return M.regex(arg)


def _between(arg: Any) -> Matcher:
    if not is_list(arg) or len(arg) != 2:
        raise OperatorError(f"$between takes a list of two numbers [low, high] (got {render(arg)})")
    for index, bound in enumerate(arg):
        if not is_number(bound):
            raise OperatorError(f"$between takes numbers (got {render(bound)})", (index,))
    return M.between(arg[0], arg[1])


def _unordered(arg: Any) -> Matcher:
    if not is_list(arg):
        raise OperatorError(f"$unordered takes a list (got {render(arg)})")
    return M.unordered(arg)


_APPROX_KEYS: Final = ("value", "rel", "abs")


def _approx(arg: Any) -> Matcher:
    if is_number(arg):
        return M.approx(arg)
    if not isinstance(arg, Mapping) or "value" not in arg:
        raise OperatorError(
            f"$approx takes a number or {{value: x, rel: r, abs: a}} (got {render(arg)})"
        )
    for key in arg:
        if key not in _APPROX_KEYS:
            hint = did_you_mean(str(key), _APPROX_KEYS)
            raise OperatorError(f"unknown $approx key {key!r}{hint}", (key,))
    for key in _APPROX_KEYS:
        if key in arg and not (is_number(arg[key]) or (key != "value" and arg[key] is None)):
            raise OperatorError(f"$approx {key} takes a number (got {render(arg[key])})", (key,))
    return M.approx(arg["value"], rel=arg.get("rel"), abs=arg.get("abs"))


OPERATORS: Final[Mapping[str, Builder]] = MappingProxyType(
    {
        "$partial": _partial,
        "$exact": M.exact,
        "$subset_of": _subset_of,
        "$regex": _regex,
        "$anything": _flag("$anything", M.anything),
        "$any": _flag("$any", M.anything),
        "$non_empty": _flag("$non_empty", M.non_empty),
        "$absent": _flag("$absent", M.absent),
        "$all_of": lambda arg: M.all_of(*_list("$all_of", arg)),
        "$any_of": lambda arg: M.any_of(*_list("$any_of", arg)),
        "$not": M.not_,
        "$gt": _compare("$gt", M.gt),
        "$ge": _compare("$ge", M.ge),
        "$lt": _compare("$lt", M.lt),
        "$le": _compare("$le", M.le),
        "$between": _between,
        "$contains": M.contains,
        "$one_of": lambda arg: M.one_of(*_list("$one_of", arg)),
        "$not_in": lambda arg: M.not_in(*_list("$not_in", arg)),
        "$approx": _approx,
        "$unordered": _unordered,
        "$json": M.json,
        "$lenient": M.lenient,
        "$loose": M.loose,
    }
)
"""``$``-operator name → builder taking the (already converted) argument."""


class _Failed:
    """Marks a sub-value that could not be converted (its problems are already recorded)."""


_FAILED: Final = _Failed()


def _operator_keys(obj: Mapping[Any, Any]) -> list[str]:
    return [k for k in obj if isinstance(k, str) and k.startswith("$") and not k.startswith("$$")]


def _convert(obj: Any, path: tuple[PathItem, ...], problems: list[OperatorProblem]) -> Any:
    if isinstance(obj, Mapping):
        operators = _operator_keys(obj)
        if operators:
            return _convert_operator(obj, operators, path, problems)
        converted: dict[Any, Any] = {}
        for key, value in obj.items():
            converted[unescape_key(key)] = _convert(value, (*path, key), problems)
        return _FAILED if any(v is _FAILED for v in converted.values()) else converted
    if is_list(obj):
        items = [_convert(item, (*path, i), problems) for i, item in enumerate(obj)]
        return _FAILED if any(item is _FAILED for item in items) else items
    return obj


def _convert_operator(
    obj: Mapping[Any, Any],
    operators: list[str],
    path: tuple[PathItem, ...],
    problems: list[OperatorProblem],
) -> Any:
    if len(obj) > 1:
        names = ", ".join(map(repr, operators))
        if len(operators) == len(obj):
            message = f"a mapping holds exactly one operator (got {names})"
        else:
            plain = ", ".join(repr(k) for k in obj if k not in operators)
            message = (
                f"a mapping cannot mix operators ({names}) with plain keys ({plain}); "
                "write a literal key that starts with '$' as '$$key'"
            )
        problems.append(OperatorProblem(path, message))
        return _FAILED
    name = operators[0]
    here = (*path, name)
    builder = OPERATORS.get(name)
    if builder is None:
        if name == "$satisfies":
            message = "M.satisfies(...) takes a Python callable and has no YAML/JSON form"
        else:
            message = f"unknown operator {name!r}{did_you_mean(name, OPERATORS)}"
        problems.append(OperatorProblem(here, message))
        return _FAILED
    arg = _convert(obj[name], here, problems)
    if arg is _FAILED:
        return _FAILED
    try:
        return builder(arg)
    except OperatorError as exc:
        problems.extend(OperatorProblem((*here, *p.parts), p.message) for p in exc.problems)
    except (ValueError, TypeError) as exc:
        problems.append(OperatorProblem(here, str(exc)))
    return _FAILED


def from_data(obj: Any) -> Any:
    """Convert parsed YAML/JSON data into values with matchers, recursively.

    Operator mappings become matchers, ``$$key`` becomes the literal key ``$key``, lists and
    plain mappings are converted item by item, other values are returned unchanged.

    Args:
        obj: Parsed data.

    Returns:
        The converted value (a matcher, a plain value, or a structure containing matchers).

    Raises:
        OperatorError: Listing every problem, each with its key path relative to ``obj``
            (data nested past the limit of nesting is one problem, at its path).

    >>> from_data({"$between": [1, 3]}), from_data([{"$approx": {"value": 0.3, "abs": 1e-9}}])
    (M.between(1, 3), [M.approx(0.3, abs=1e-09)])
    >>> from_data({"$all_of": [{"$gt": "x"}, {"$lt": 5, "n": 1}]})
    Traceback (most recent call last):
    ...
    agent_asserts.matching.operators.OperatorError: 2 problems:
      $all_of[0].$gt: $gt takes a number (got 'x')
      $all_of[1]: a mapping cannot mix operators ('$lt') with plain keys ('n'); ...
    """
    where = too_deep(obj)  # refused before the recursive walk below reaches it
    if where is not None:
        raise OperatorError(problems=[OperatorProblem(where, depth_message())])
    problems: list[OperatorProblem] = []
    result = _convert(obj, (), problems)
    if problems:
        raise OperatorError(problems=problems)
    return result


__all__ = [
    "ANY",
    "OPERATORS",
    "M",
    "OperatorError",
    "OperatorProblem",
    "from_data",
    "value_to_data",
]
