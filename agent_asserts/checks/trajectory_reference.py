"""The reference side of ``matches_trajectory``: reference calls and argument modes.

A reference is a list of ``{"name": ..., "arguments": ...}`` mappings (``arguments`` optional:
absent means any arguments), of ``(name, arguments)`` pairs, of plain tool names, or a
:class:`~agent_asserts.record.TrialRecord` whose tool calls are the reference. It is kept as a
tuple of plain mappings, so the check prints, compares and serializes like any other.

An argument mode says when a call's actual arguments match the reference's:

* ``"exact"``: deep equality (no extra keys on either side; matchers inside the reference
  delegate to themselves);
* ``"superset"``: the actual arguments hold every reference key (the default partial match);
* ``"subset"``: every actual key appears in the reference (``M.subset_of``);
* ``"ignore"``: only the tool name counts;
* a matcher: the actual arguments match it (the reference's arguments are not used);
* a callable ``fn(expected, actual) -> bool``: a comparator of your own.

>>> normalize_reference([("lookup", {"id": 1}), "issue", {"name": "notify"}])
({'name': 'lookup', 'arguments': {'id': 1}}, {'name': 'issue'}, {'name': 'notify'})
>>> spec = CallSpec.build({"name": "lookup", "arguments": {"id": 1}}, "superset")
>>> spec.compatible({"id": 1, "extra": True}), spec.key is None
(True, True)
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from typing import Any, Final

from agent_asserts._text import unknown_key_message
from agent_asserts._values import MISSING
from agent_asserts.matching import Matcher, MatcherError, Mismatch, render
from agent_asserts.matching.structural import (
    ExactMatcher,
    SubsetOfMatcher,
    exact_value,
    explain_exact,
    explain_value,
    match_value,
)
from agent_asserts.matching.values import data_key, is_list
from agent_asserts.record import ToolCallPayload, TrialRecord

ARGUMENT_MODES: Final = ("exact", "subset", "superset", "ignore")
"""The named argument modes."""

ORDER_MODES: Final = ("strict", "in_order", "unordered", "subset", "superset")
"""The order modes of ``matches_trajectory``."""


class _AnyArguments:
    """The type of :data:`ANY_ARGUMENTS`; there is exactly one instance, in every process.

    The key is compared by identity (``key is ANY_ARGUMENTS``), and checks carry their
    compiled keys to the workers of a process pool or Dask: unpickling gives back the one
    instance (``__reduce__`` names it), so a reference call without arguments matches the
    same calls on every executor. No actual call's key (a JSON text or a data key) equals it.

    >>> import pickle
    >>> pickle.loads(pickle.dumps(ANY_ARGUMENTS)) is ANY_ARGUMENTS
    True
    """

    _instance: _AnyArguments | None = None

    def __new__(cls) -> _AnyArguments:
        if cls._instance is None:
            cls._instance = super().__new__(cls)
        return cls._instance

    def __repr__(self) -> str:
        return "ANY_ARGUMENTS"

    def __reduce__(self) -> str:
        return "ANY_ARGUMENTS"

    def __copy__(self) -> _AnyArguments:
        return self

    def __deepcopy__(self, memo: object) -> _AnyArguments:
        return self


ANY_ARGUMENTS: Final = _AnyArguments()
"""The hash key of a reference call that accepts any arguments of its tool."""

_REFERENCE_KEYS: Final = ("name", "arguments")


def _reference_call(item: Any, index: int) -> dict[str, Any]:
    where = f"reference[{index}]"
    call: dict[str, Any]
    if isinstance(item, str):
        call = {"name": item}  # checked below: an empty name would not load back
    elif isinstance(item, Mapping):
        unknown = [k for k in item if k not in _REFERENCE_KEYS]
        if unknown:
            raise ValueError(f"{where}: {unknown_key_message(str(unknown[0]), _REFERENCE_KEYS)}")
        if "name" not in item:
            raise ValueError(f"{where}: needs a 'name' (got {render(item)})")
        call = {"name": item["name"]}
        if "arguments" in item:
            call["arguments"] = item["arguments"]
    elif is_list(item) and len(item) == 2:
        call = {"name": item[0], "arguments": item[1]}
    else:
        raise TypeError(
            f"{where}: must be a tool name, a {{name, arguments}} mapping or a "
            f"(name, arguments) pair (got {render(item)})"
        )
    if not isinstance(call["name"], str) or not call["name"]:
        raise TypeError(f"{where}.name: must be a non-empty string (got {render(call['name'])})")
    return call


def normalize_reference(reference: Any) -> tuple[dict[str, Any], ...]:
    """The reference as a tuple of ``{"name", "arguments"?}`` mappings (an attrs converter).

    Args:
        reference: A list of mappings, pairs or names, or a ``TrialRecord``.

    Returns:
        The reference calls.

    Raises:
        TypeError: ``reference`` or one of its items has the wrong type.
        ValueError: an item has an unknown key or no name.

    >>> normalize_reference([{"name": "a", "args": {}}])
    Traceback (most recent call last):
    ...
    ValueError: reference[0]: unknown key 'args' (did you mean 'arguments'?)
    """
    if isinstance(reference, TrialRecord):
        calls: list[dict[str, Any]] = []
        for event in reference.tool_calls:
            payload = event.payload
            if isinstance(payload, ToolCallPayload):
                call: dict[str, Any] = {"name": payload.name}
                if payload.arguments is not MISSING:
                    call["arguments"] = payload.arguments
                calls.append(call)
        return tuple(calls)
    if isinstance(reference, str | bytes | Mapping) or not is_list(reference):
        raise TypeError(
            "matches_trajectory() parameter 'reference' takes a list of {name, arguments} "
            f"mappings, (name, arguments) pairs or tool names, or a TrialRecord "
            f"(got {render(reference)})"
        )
    calls = []
    for i, item in enumerate(reference):
        # the common item, a plain {name, arguments} dict with a string name, without the
        # general path's ABC checks; anything else takes that path (and its error messages)
        if type(item) is dict and len(item) == 2 and "arguments" in item:
            name = item.get("name")
            if type(name) is str and name:
                calls.append({"name": name, "arguments": item["arguments"]})
                continue
        calls.append(_reference_call(item, i))
    return tuple(calls)


def check_argument_mode(value: Any, where: str) -> None:
    """Raise ``TypeError``/``ValueError`` unless ``value`` is an argument mode.

    >>> check_argument_mode("partial", "arguments")
    Traceback (most recent call last):
    ...
    ValueError: matches_trajectory() parameter 'arguments' takes 'exact', 'subset', 'superset',
    'ignore', a matcher or a callable (got 'partial')
    """
    if isinstance(value, Matcher) or (callable(value) and not isinstance(value, str)):
        return
    accepted = "'exact', 'subset', 'superset', 'ignore', a matcher or a callable"
    text = f"matches_trajectory() parameter {where!r} takes {accepted} (got {render(value)})"
    if isinstance(value, str):
        if value not in ARGUMENT_MODES:
            raise ValueError(text)
        return
    raise TypeError(text)


def mode_text(mode: Any) -> str:
    """A mode as the failure message shows it.

    >>> mode_text("exact"), mode_text(len)
    ("'exact'", 'len')
    """
    if isinstance(mode, str | Matcher):
        return repr(mode)
    return str(getattr(mode, "__name__", None) or render(mode))


def has_matcher(value: Any) -> bool:
    """Whether a matcher occurs anywhere inside ``value``.

    >>> from agent_asserts import M
    >>> has_matcher({"a": [1, {"b": M.gt(1)}]}), has_matcher({"a": [1]})
    (True, False)
    """
    if isinstance(value, Matcher):
        return True
    if isinstance(value, Mapping):
        return any(has_matcher(v) for v in value.values())
    if is_list(value):
        return any(has_matcher(v) for v in value)
    return False


def _integral_floats(value: Any) -> Any:
    t = type(value)
    if t is float:
        return int(value) if value.is_integer() else value
    if t is dict:
        return {k: _integral_floats(v) for k, v in value.items()}
    if t is list or t is tuple:
        return [_integral_floats(v) for v in value]
    return value


def canonical_key(value: Any) -> str | None:
    """Canonical JSON text, equal for values that are deeply, strictly equal (``2 == 2.0``,
    ``True != 1``, key order ignored); None for a value that is not plain JSON (a matcher).

    The text is built by the C JSON encoder and allocates no container the garbage collector
    must track, which keeps the exact modes linear on large runs. Only a text that could hold
    an integral float (``.0`` or ``e+``) is re-encoded with those floats made ints.

    >>> canonical_key({"b": [1, 2.0], "a": True}) == canonical_key({"a": True, "b": [1.0, 2]})
    True
    >>> canonical_key(1) == canonical_key(True), canonical_key(float("nan"))
    (False, None)
    """
    try:
        try:
            text = "".join(_encode_unchecked(value, 0))
        except RecursionError:  # a cycle (ValueError here) or nesting deeper than the stack
            text = _dumps(value)
        if ".0" in text or "e+" in text:
            text = _dumps(_integral_floats(value))
    except (TypeError, ValueError):
        return None
    return text


def reference_key(arguments: Any, mode: Any) -> Any:
    """The hash key of a reference call's arguments under ``mode`` (see :attr:`CallSpec.key`):
    :data:`ANY_ARGUMENTS` when any arguments match, None when the mode needs a predicate.

    >>> reference_key({"a": 1.0}, "exact"), reference_key(MISSING, "exact")
    ('{"a":1}', ANY_ARGUMENTS)
    >>> reference_key({"a": 1}, "superset") is None
    True
    """
    if arguments is MISSING or mode == "ignore":
        return ANY_ARGUMENTS
    if mode == "exact":
        key = canonical_key(arguments)
        if key is None and not has_matcher(arguments):
            return data_key(arguments)
        return key
    return None


def actual_key(arguments: Any) -> Any:
    """The hash key of an actual call's arguments, comparable with :attr:`CallSpec.key`.

    >>> actual_key({"a": 1}) == CallSpec.build({"name": "t", "arguments": {"a": 1.0}}, "exact").key
    True
    """
    key = canonical_key(arguments)
    return data_key(arguments) if key is None else key


_encode: Final = json.JSONEncoder(sort_keys=True, separators=(",", ":"), allow_nan=False).encode
_make_encoder: Final[Any] = getattr(json.encoder, "c_make_encoder", None)  # None: no C speedups
_escape: Final = json.encoder.encode_basestring_ascii


def _not_json(value: Any) -> Any:
    raise TypeError(f"Object of type {type(value).__name__} is not JSON serializable")


def _unchecked_chunks(value: Any, indent: int) -> Any:
    return (_encode(value),)  # without the C speedups: the encoder's own markers table


_encode_unchecked: Final[Any] = (
    _unchecked_chunks
    if _make_encoder is None
    else _make_encoder(None, _not_json, _escape, None, ":", ",", True, False, False)
)
"""One C encoder for every call: no ``markers`` table (a cycle recurses until
``RecursionError``), so it keeps no state between calls and costs no allocation to make."""


def _dumps(value: Any) -> str:
    """``_encode(value)`` without the Python layer of ``JSONEncoder.encode`` (it builds a new C
    encoder on every call); a fresh ``markers`` table per call keeps the circular-reference
    check."""
    if _make_encoder is None:
        return _encode(value)
    encoder = _make_encoder({}, _not_json, _escape, None, ":", ",", True, False, False)
    return "".join(encoder(value, 0))


class CallSpec:
    """One reference call compiled for matching.

    ``key`` is a hashable key when equality of keys decides a match (the ``exact`` mode over
    plain arguments: the canonical :func:`~agent_asserts.matching.values.data_key`;
    :data:`ANY_ARGUMENTS` when any arguments match); None when the mode needs a predicate.
    """

    __slots__ = ("arguments", "index", "key", "mode", "name")

    def __init__(self, index: int, name: str, arguments: Any, mode: Any, key: Any) -> None:
        self.index, self.name, self.arguments, self.mode, self.key = (
            index, name, arguments, mode, key,
        )  # fmt: skip

    def __repr__(self) -> str:
        return f"CallSpec({self.index}, {self.text()}, mode={mode_text(self.mode)})"

    @classmethod
    def build(cls, call: Mapping[str, Any], mode: Any, index: int = 0) -> CallSpec:
        """Compile one reference call under ``mode``.

        >>> CallSpec.build({"name": "a"}, "exact").key
        ANY_ARGUMENTS
        """
        arguments = call.get("arguments", MISSING)
        return cls(index, call["name"], arguments, mode, reference_key(arguments, mode))

    def compatible(self, actual: Any) -> bool:
        """Whether actual arguments match this call (``MatcherError`` when a predicate raises).

        >>> CallSpec.build({"name": "a", "arguments": {"x": 1}}, "subset").compatible({})
        True
        """
        if self.key is ANY_ARGUMENTS:
            return True
        mode = self.mode
        if isinstance(mode, Matcher):
            return mode.matches(actual)
        if mode == "exact":
            return exact_value(self.arguments, actual)
        if mode == "superset":
            return match_value(self.arguments, actual)
        if mode == "subset":
            return _subset(self.arguments).matches(actual)
        comparator: Callable[[Any, Any], Any] = mode
        try:
            return bool(comparator(self.arguments, actual))
        except Exception as exc:
            raise MatcherError(mode_text(mode), exc) from exc

    def explain(self, actual: Any, path: str) -> list[Mismatch]:
        """Why actual arguments do not match (empty when they do).

        >>> [str(m) for m in CallSpec.build({"name": "a", "arguments": {"x": 1}}, "exact")
        ...     .explain({"x": 2}, "$.arguments")]
        ['$.arguments.x: expected 1, got 2']
        """
        if self.key is ANY_ARGUMENTS:
            return []
        mode = self.mode
        if isinstance(mode, Matcher):
            return mode.explain(actual, path)
        if mode == "exact":
            return explain_exact(self.arguments, actual, path)
        if mode == "superset":
            return explain_value(self.arguments, actual, path)
        if mode == "subset":
            return _subset(self.arguments).explain(actual, path)
        if self.compatible(actual):
            return []
        reason = f"{mode_text(mode)} rejected {render(actual)} (expected {render(self.arguments)})"
        return [Mismatch(path, self.arguments, actual, reason)]

    def text(self) -> str:
        """``name(arguments)`` or ``name(…)`` when any arguments match.

        >>> CallSpec.build({"name": "a", "arguments": {"x": 1}}, "exact").text()
        "a({'x': 1})"
        """
        if self.arguments is MISSING:
            return f"{self.name}(…)"
        return f"{self.name}({render(self.arguments)})"


def _subset(arguments: Any) -> Matcher:
    if isinstance(arguments, Mapping):
        return SubsetOfMatcher(arguments)
    return ExactMatcher(arguments)


__all__ = [
    "ANY_ARGUMENTS",
    "ARGUMENT_MODES",
    "ORDER_MODES",
    "CallSpec",
    "actual_key",
    "canonical_key",
    "check_argument_mode",
    "has_matcher",
    "mode_text",
    "normalize_reference",
    "reference_key",
]
