"""Checks of JSON values, shared by the decoder, the builder and the declared tools, and the
warnings for payload keys that look like a misnamed field.

Payload keys that look like a misnamed field: ``args`` for ``arguments``, ``output`` for
``result``…

A typed payload keeps the keys it does not know in ``extra``, so nothing is lost; but a tool
call written with ``args`` then has no ``arguments``, and an arguments check fails with
``$.arguments.a: missing key`` while the data sits under ``args``. When a payload's ``extra``
holds a known alias or a near miss of one of its fields (and that field itself is absent),
decoding emits a :class:`~agent_asserts.errors.RecordWarning` naming the path and the field,
and the checks that compare that field mention it on a failure.

>>> suspicious_keys({"name": "t", "args": {}}, frozenset({"name", "arguments", "result"}))
[('args', 'arguments')]
>>> suspicious_keys({"name": "t", "reslt": 1}, frozenset({"name", "arguments", "result"}))
[('reslt', 'result')]
>>> suspicious_keys({"name": "t", "vendor": 1}, frozenset({"name", "arguments"}))
[]

Checks of JSON values, shared by the decoder, the builder and the declared tools.

Every ``must_be_*`` function returns None when the value is valid, else the message of the
problem (the text that follows the JSON path in a
:class:`~agent_asserts.record.errors.Problem`); the field readers (:func:`required_str`,
:func:`optional_str`…) append ``(path, message)`` pairs to a :data:`Problems` list;
:func:`json_copy` and :func:`copy_within` copy JSON data, the latter refusing data nested past
the depth limit (:class:`TooDeep`).

>>> must_be_int("four")
"must be an integer (got 'four')"
>>> must_be_int(True) is None
False
"""

from __future__ import annotations

import warnings
from collections.abc import Iterable, Mapping
from typing import Any, Final

from agent_asserts._text import did_you_mean, edit_distance, safe_repr
from agent_asserts._values import MAX_DEPTH, MISSING, too_deep
from agent_asserts.errors import AgentAssertsError, RecordWarning
from agent_asserts.record.event import ERROR_OUTCOMES

ALIASES: Final[Mapping[str, tuple[str, ...]]] = {
    "args": ("arguments",),
    "input": ("arguments",),
    "inputs": ("arguments",),
    "parameters": ("arguments",),
    "params": ("arguments",),
    "kwargs": ("arguments",),
    "tool_input": ("arguments",),
    "output": ("result",),
    "outputs": ("result",),
    "response": ("result",),
    "return": ("result",),
    "tool_output": ("result",),
    "tool": ("name",),
    "tool_name": ("name",),
    "function": ("name",),
    "error": ("is_error", "error_message"),
    "content": ("text",),
    "message": ("text",),
    "key": ("name",),
    "slot": ("name",),
    "skill": ("skill_id",),
    "block": ("block_id",),
    "agent": ("subagent",),
}
"""Known aliases, each with the fields it may stand for (the first one the payload has wins)."""


OWN_EXTRA_KEYS: Final = frozenset({"trace_items", "result_raw", "unpaired"})
"""Extra payload keys the library itself writes (the positions an adapter made an event from,
the text a tool result was read from, a result without its call): never a misspelt field, so
:func:`suspicious_keys` does not ask about them."""


def near_miss(key: str, fields: Iterable[str]) -> str | None:
    """The field ``key`` is a typo of: same first letter, at most two edits away (one for
    short names), not a different word that merely shares letters (``resource``/``source``).

    >>> near_miss("argments", ["arguments"]), near_miss("resource", ["source"])
    ('arguments', None)
    """
    best: tuple[int, str] | None = None
    for field in fields:
        if len(key) < 3 or key[0] != field[0]:
            continue
        distance = edit_distance(key, field)
        if 0 < distance <= (1 if len(field) <= 4 else 2) and (best is None or distance < best[0]):
            best = (distance, field)
    return None if best is None else best[1]


def suspicious_keys(raw: Mapping[str, Any], known: frozenset[str]) -> list[tuple[str, str]]:
    """``(key, field)`` for each unknown key of ``raw`` that looks like an absent field.

    Args:
        raw: The payload as written.
        known: The payload type's field names.

    Returns:
        The suspicious keys, in the order written.
    """
    out: list[tuple[str, str]] = []
    for key in raw:
        if key in known or key in OWN_EXTRA_KEYS or not isinstance(key, str):
            continue
        field = next((f for f in ALIASES.get(key, ()) if f in known), None)
        if field is None:
            field = near_miss(key, known)
        if field is not None and field not in raw:
            out.append((key, field))
    return out


def alias_message(path: str, key: str, field: str) -> str:
    """The warning text.

    >>> alias_message("$.events[0].payload", "args", "arguments")
    "$.events[0].payload.args: unknown key kept in 'extra'; it looks like 'arguments' (rename it)"
    """
    return f"{path}.{key}: unknown key kept in 'extra'; it looks like {field!r} (rename it)"


def warn_suspicious(raw: Mapping[str, Any], known: frozenset[str], path: str) -> None:
    """Emit one :class:`RecordWarning` per suspicious key of ``raw``.

    >>> import warnings
    >>> with warnings.catch_warnings(record=True) as caught:
    ...     warnings.simplefilter("always")
    ...     warn_suspicious({"params": {}}, frozenset({"name", "arguments"}), "$.p")
    >>> [str(w.message) for w in caught]
    ["$.p.params: unknown key kept in 'extra'; it looks like 'arguments' (rename it)"]
    """
    for key, field in suspicious_keys(raw, known):
        warnings.warn(alias_message(path, key, field), RecordWarning, stacklevel=2)


def alias_of(extra: Mapping[str, Any], field: str) -> str | None:
    """The key of ``extra`` that looks like ``field`` (an alias or a near miss), or None.

    >>> alias_of({"args": {"a": 1}}, "arguments"), alias_of({"x": 1}, "arguments")
    ('args', None)
    """
    for key in extra:
        if not isinstance(key, str):
            continue
        if field in ALIASES.get(key, ()) or near_miss(key, [field]) == field:
            return key
    return None


_MAX_REPR = 60

Problems = list[tuple[str, str]]
"""Where decoders collect ``(path, message)`` problems."""


def got(value: Any) -> str:
    """A short repr of a bad value, for messages (never raises).

    >>> got("x" * 100)[-6:]
    "xx...'"
    """
    text = safe_repr(value)
    if len(text) > _MAX_REPR:
        keep = _MAX_REPR - 4
        text = text[:keep] + "..." + text[-1]
    return text


def child(path: str, key: Any) -> str:
    """The JSON path of ``key`` under ``path``: ``.key`` for identifiers, else ``['key']``.

    >>> child("$", "events"), child("$.state", "a b"), child("$.events", 3)
    ('$.events', "$.state['a b']", '$.events[3]')
    """
    if isinstance(key, int) and not isinstance(key, bool):
        return f"{path}[{key}]"
    if isinstance(key, str) and key.isidentifier():
        return f"{path}.{key}"
    return f"{path}[{key!r}]"


def unknown_key(key: Any, known: Iterable[str]) -> str:
    """The message for an unknown key, with a "did you mean" hint when one is close.

    >>> unknown_key("tpyo", ["type", "kind"])
    "unknown key (did you mean 'type'?)"
    >>> unknown_key("zzz", ["type"])
    'unknown key'
    """
    if isinstance(key, str):
        return "unknown key" + did_you_mean(key, known, cutoff=0.5)
    return "unknown key"


def one_of(allowed: Iterable[str]) -> str:
    """``'a', 'b', 'c'`` for messages.

    >>> one_of(("set", "clear"))
    "'set', 'clear'"
    """
    return ", ".join(repr(item) for item in allowed)


def must_be_str(value: Any, *, non_empty: bool = False) -> str | None:
    """Check a string (optionally non-empty).

    >>> must_be_str(3)
    'must be a string (got 3)'
    >>> must_be_str("", non_empty=True)
    "must be a non-empty string (got '')"
    """
    if type(value) is str or isinstance(value, str):
        if non_empty and not value:
            return f"must be a non-empty string (got {got(value)})"
        return None
    return f"must be a string (got {got(value)})"


def must_be_int(value: Any, *, minimum: int | None = 0) -> str | None:
    """Check an integer (never a bool, never a float) no smaller than ``minimum``.

    >>> must_be_int(-1)
    'must be a non-negative integer (got -1)'
    >>> must_be_int(4.0)
    'must be an integer (got 4.0)'
    """
    if type(value) is not int and (not isinstance(value, int) or isinstance(value, bool)):
        return f"must be an integer (got {got(value)})"
    if minimum is not None and value < minimum:
        if minimum == 0:
            return f"must be a non-negative integer (got {got(value)})"
        return f"must be an integer >= {minimum} (got {got(value)})"
    return None


def must_be_number(value: Any) -> str | None:
    """Check a JSON number (int or float, never a bool).

    >>> must_be_number("1.5")
    "must be a number (got '1.5')"
    >>> must_be_number(2) is None
    True
    """
    if isinstance(value, int | float) and not isinstance(value, bool):
        return None
    return f"must be a number (got {got(value)})"


def must_be_duration(value: Any) -> str | None:
    """Check a duration: a finite number of seconds, >= 0 (never a bool).

    >>> must_be_duration(-0.5)
    'must be a non-negative number of seconds (got -0.5)'
    >>> must_be_duration(1.25) is None
    True
    """
    if isinstance(value, int | float) and not isinstance(value, bool) and 0 <= value < float("inf"):
        return None
    return f"must be a non-negative number of seconds (got {got(value)})"


def must_be_bool(value: Any) -> str | None:
    """Check a boolean.

    >>> must_be_bool(0)
    'must be a boolean (got 0)'
    """
    if isinstance(value, bool):
        return None
    return f"must be a boolean (got {got(value)})"


def must_be_object(value: Any) -> str | None:
    """Check a JSON object (a mapping).

    >>> must_be_object([])
    'must be an object (got [])'
    """
    if isinstance(value, Mapping):
        return None
    return f"must be an object (got {got(value)})"


def must_be_list(value: Any) -> str | None:
    """Check a JSON array (a list or tuple).

    >>> must_be_list("abc")
    "must be a list (got 'abc')"
    """
    if isinstance(value, list | tuple):
        return None
    return f"must be a list (got {got(value)})"


_SCALARS: Final[frozenset[type]] = frozenset({str, int, float, bool, type(None)})


class NotJSON(AgentAssertsError):
    """Raised by :func:`fast_copy` on anything unusual (then :func:`json_copy` explains it).

    >>> fast_copy({1: 2})
    Traceback (most recent call last):
    ...
    agent_asserts.record.validators.NotJSON
    """


def scalar_types() -> frozenset[type]:
    """The types of JSON scalars (exact types, no subclasses).

    >>> bool in scalar_types()
    True
    """
    return _SCALARS


def fast_copy(value: Any, levels: int = MAX_DEPTH) -> Any:
    """Copy JSON data (dicts, lists, scalars), raising :class:`NotJSON` on anything else, or
    on containers nested more than ``levels`` deep (``value`` itself is level 1), so that data
    nested past :data:`~agent_asserts._values.MAX_DEPTH` never reaches Python's recursion limit.

    >>> fast_copy({"a": [1, {"b": None}]})
    {'a': [1, {'b': None}]}
    >>> fast_copy({"a": [1, {"b": None}]}, levels=2)
    Traceback (most recent call last):
    ...
    agent_asserts.record.validators.NotJSON
    """
    kind = type(value)
    if kind is dict:
        if levels < 1:
            raise NotJSON
        levels -= 1
        out = {}
        for key, item in value.items():
            if type(key) is not str:
                raise NotJSON
            out[key] = item if type(item) in _SCALARS else fast_copy(item, levels)
        return out
    if kind is list:
        if levels < 1:
            raise NotJSON
        levels -= 1
        return [item if type(item) in _SCALARS else fast_copy(item, levels) for item in value]
    if kind in _SCALARS:
        return value
    raise NotJSON


def fits(value: Any, levels: int = MAX_DEPTH) -> bool:
    """Whether :func:`fast_copy` would copy ``value`` (JSON data nested at most ``levels``
    deep), found without copying anything.

    >>> fits({"a": [1, {"b": None}]}), fits({"a": [1, {"b": None}]}, levels=2), fits({1: 2})
    (True, False, False)
    """
    kind = type(value)
    if kind is dict:
        if levels < 1:
            return False
        levels -= 1
        for key, item in value.items():
            if type(key) is not str or (type(item) not in _SCALARS and not fits(item, levels)):
                return False
        return True
    if kind is list:
        if levels < 1:
            return False
        levels -= 1
        return all(type(item) in _SCALARS or fits(item, levels) for item in value)
    return kind in _SCALARS


def json_copy(value: Any, path: str, problems: list[tuple[str, str]]) -> Any:
    """A copy of ``value`` as plain JSON data (dicts, lists, scalars); tuples become lists.

    Anything else (a set, an object, a non-string dict key) is reported in ``problems`` as
    ``(path, message)`` pairs.

    >>> problems: list[tuple[str, str]] = []
    >>> json_copy({"a": (1, 2)}, "$.x", problems)
    {'a': [1, 2]}
    >>> json_copy({"a": {1}}, "$.x", problems); problems
    {'a': None}
    [('$.x.a', 'must be JSON data (got set {1})')]
    """
    if type(value) in _SCALARS:
        return value
    try:
        return fast_copy(value)
    except NotJSON:
        return _slow_copy(value, path, problems)


def _slow_copy(value: Any, path: str, problems: list[tuple[str, str]]) -> Any:
    kind = type(value)
    if value is None or kind is str or kind is int or kind is float or kind is bool:
        return value
    if isinstance(value, Mapping):
        out: dict[str, Any] = {}
        for key, item in value.items():
            if not isinstance(key, str):
                problems.append((path, f"keys must be strings (got {got(key)})"))
                continue
            out[key] = _slow_copy(item, child(path, key), problems)
        return out
    if isinstance(value, list | tuple):
        return [_slow_copy(item, child(path, i), problems) for i, item in enumerate(value)]
    if isinstance(value, str | int | float):
        return value
    problems.append((path, f"must be JSON data (got {kind.__name__} {got(value)})"))
    return None


MISSING_FIELD: Final = "required field missing"


def extra_keys(raw: Mapping[str, Any], known: frozenset[str], path: str, problems: Problems) -> Any:
    """A JSON copy of the keys of ``raw`` outside ``known`` (the payload's ``extra``).

    >>> extra_keys({"name": "t", "vendor": 1}, frozenset({"name"}), "$", [])
    {'vendor': 1}
    """
    if raw.keys() <= known:
        return {}
    warn_suspicious(raw, known, path)
    return json_copy({key: value for key, value in raw.items() if key not in known}, path, problems)


def required_str(raw: Mapping[str, Any], key: str, path: str, problems: Problems) -> Any:
    """A required non-empty string (None after a problem)."""
    value = raw.get(key, MISSING)
    if value is MISSING:
        problems.append((child(path, key), MISSING_FIELD))
        return None
    message = must_be_str(value, non_empty=True)
    if message is not None:
        problems.append((child(path, key), message))
        return None
    return value


def optional_str(raw: Mapping[str, Any], key: str, path: str, problems: Problems) -> Any:
    """An optional string: None when absent or null (None after a problem)."""
    value = raw.get(key)
    if value is None or type(value) is str:
        return value
    message = must_be_str(value)
    if message is not None:
        problems.append((child(path, key), message))
        return None
    return value


def optional_bool(
    raw: Mapping[str, Any], key: str, path: str, problems: Problems, default: Any = False
) -> Any:
    """An optional boolean: ``default`` when absent (None after a problem)."""
    value = raw.get(key, MISSING)
    if value is MISSING:
        return default
    if value is True or value is False:
        return value
    problems.append((child(path, key), must_be_bool(value) or ""))
    return None


def optional_choice(
    raw: Mapping[str, Any], key: str, allowed: tuple[str, ...], path: str, problems: Problems
) -> Any:
    """An optional string from ``allowed``: None when absent or null.

    >>> problems: Problems = []
    >>> optional_choice({"mode": "push"}, "mode", ("handoff", "tool"), "$", problems), problems
    (None, [('$.mode', "must be one of 'handoff', 'tool' (got 'push')")])
    """
    value = raw.get(key)
    if value is None or value in allowed:
        return value
    message = must_be_str(value) or f"must be one of {one_of(allowed)} (got {value!r})"
    problems.append((child(path, key), message))
    return None


def resolve_outcome(is_error: Any, outcome: str | None) -> tuple[bool, str, str | None]:
    """The ``(is_error, outcome)`` of a tool call, each derived from the other when absent.

    ``is_error`` is ``MISSING`` when not given, ``outcome`` None. The third item is the
    problem message when both are given and contradict each other.

    >>> resolve_outcome(MISSING, "retried")
    (True, 'retried', None)
    >>> resolve_outcome(True, None)
    (True, 'failed', None)
    >>> resolve_outcome(True, "denied")[2]
    "true contradicts outcome 'denied' (is_error is true exactly for 'failed' and 'retried')"
    """
    if outcome is None:
        flag = is_error is True
        return flag, "failed" if flag else "succeeded", None
    implied = outcome in ERROR_OUTCOMES
    if is_error is MISSING or is_error is implied:
        return implied, outcome, None
    message = (
        f"{str(is_error).lower()} contradicts outcome {outcome!r} (is_error is true exactly"
        " for 'failed' and 'retried')"
    )
    return bool(is_error), outcome, message


class TooDeep(AgentAssertsError):
    """Raised by :func:`copy_within` on data nested past its limit (the record decoder then
    reports the first container of the whole record nested past
    :data:`~agent_asserts._values.MAX_DEPTH`)."""


def copy_within(value: Any, path: str, problems: Problems, levels: int) -> Any:
    """:func:`json_copy` of a value that may be nested at most ``levels`` deep (``value``
    itself is level 1): the depth is measured while copying, so valid data is walked once.

    Raises:
        TooDeep: ``value`` is nested deeper.

    >>> copy_within({"a": [1]}, "$.x", [], 2)
    {'a': [1]}
    >>> copy_within({"a": [[1]]}, "$.x", [], 2)
    Traceback (most recent call last):
    ...
    agent_asserts.record.validators.TooDeep
    """
    if type(value) in _SCALARS:
        return value
    try:
        return fast_copy(value, levels)
    except NotJSON:
        if type(value) in (dict, list, tuple) and too_deep(value, levels) is not None:
            raise TooDeep from None
        return _slow_copy(value, path, problems)


def unknown_keys(raw: Mapping[Any, Any], known: Any, path: str, problems: Problems) -> None:
    """Add an "unknown key" problem (with a suggestion) for each key of ``raw`` not in ``known``.

    >>> problems: Problems = []
    >>> unknown_keys({"knd": 1}, ("kind",), "$", problems); problems
    [('$.knd', "unknown key (did you mean 'kind'?)")]
    """
    for key in raw:
        if key not in known:
            problems.append((child(path, key), unknown_key(key, sorted(known))))


__all__ = [
    "ALIASES",
    "MISSING_FIELD",
    "NotJSON",
    "Problems",
    "TooDeep",
    "alias_message",
    "alias_of",
    "child",
    "copy_within",
    "extra_keys",
    "fast_copy",
    "fits",
    "got",
    "json_copy",
    "must_be_bool",
    "must_be_duration",
    "must_be_int",
    "must_be_list",
    "must_be_number",
    "must_be_object",
    "must_be_str",
    "near_miss",
    "one_of",
    "optional_bool",
    "optional_choice",
    "optional_str",
    "required_str",
    "resolve_outcome",
    "scalar_types",
    "suspicious_keys",
    "unknown_key",
    "unknown_keys",
    "warn_suspicious",
]
