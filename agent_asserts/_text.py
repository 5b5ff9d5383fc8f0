"""Text: safe rendering of untrusted text, lazy text, edit distance, "did you mean".

Safe text: the one rule for every piece of data that reaches a terminal, a report or a prompt.

Record data (a reply, an error, a judge's explanation) and suite data (case and check names)
may hold characters that act instead of showing: terminal escapes (``ESC [2J`` clears the
screen), carriage returns that overwrite a line, line separators that start a new line in some
viewers, bidirectional overrides that reorder what is shown ("Trojan Source"). They are:

- C0 controls (U+0000–U+001F) except tab and newline, DEL (U+007F), C1 controls
  (U+0080–U+009F, which include NEL U+0085);
- U+2028 LINE SEPARATOR, U+2029 PARAGRAPH SEPARATOR;
- the bidirectional controls U+061C, U+200E, U+200F, U+202A–U+202E and U+2066–U+2069;
- lone surrogates (U+D800–U+DFFF; a JSON ``\\ud800`` escape reads as one): not characters, and
  writing one to a UTF-8 terminal or file raises.

:func:`escape_controls` shows each as a visible escape (``\\x1b``, ``\\u2028``); the text
summary, the command line, Markdown, HTML and JUnit reports use it, and the judge prompt uses
:func:`json_escape_controls` (the same characters as JSON ``\\uXXXX`` escapes, so the evidence
stays the same JSON). :func:`safe_repr` is the one ``repr`` that never raises.

>>> escape_controls("ok\\x1b[2J\\u2028done\\n")
'ok\\\\x1b[2J\\\\u2028done\\n'

Edit distance between two strings, with the C extension imported on first use.

``Levenshtein`` (and the ``rapidfuzz`` modules it loads) costs several milliseconds to import;
only similarity matching and "did you mean" suggestions need it, so ``import agent_asserts``
and the fluent API's first import do not pay for it.

>>> edit_distance("stpe", "step"), edit_distance("", "abc")
(2, 3)

Suggestions for misspelt names: the one place that finds the closest known word.

Used wherever a misspelt name is reported (record keys, builder keyword arguments, event
filters, matcher operators, suite-file keys), so every message suggests the same way.

>>> closest_word("stauts", ["status", "steps"])
'status'
>>> did_you_mean("tunr", ["turn", "phase"])
" (did you mean 'turn'?)"
>>> did_you_mean("zzz", ["turn"])
''
>>> unknown_key_message("nme", ["name", "record"])
"unknown key 'nme' (did you mean 'name'?)"

Text rendered on first use: what a passing check keeps instead of a formatted message.

A :class:`LazyText` holds a function and its arguments; ``str()`` renders it once and keeps the
text. Result fields that accept one (``AssertionResult.message``/``description``,
``Outcome.message``) render it when read, so a result nobody reads never formats its text.
Pickling, copying and comparing see the rendered text, never the function.

>>> calls = []
>>> text = LazyText(lambda n: calls.append(n) or f"matched {n} calls", 3)
>>> len(calls)
0
>>> str(text), str(text), calls
('matched 3 calls', 'matched 3 calls', [3])
>>> text_of(text), text_of("plain")
('matched 3 calls', 'plain')
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from typing import Any, Final

# -- safe text -------------------------------------------------------------------------------------

_CONTROL_CLASS: Final = (
    "\x00-\x08\x0b-\x1f\x7f-\x9f\u2028\u2029\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069"
    "\ud800-\udfff"  # lone surrogates: no character at all, and no UTF-8 stream can write one
)


CONTROL: Final = re.compile(f"[{_CONTROL_CLASS}]")
"""The characters this module escapes (tab and newline are kept)."""


_CONTROL_OR_NEWLINE: Final = re.compile(f"[{_CONTROL_CLASS}\t\n]")


def _escape(match: re.Match[str]) -> str:
    code = ord(match.group())
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def escape_controls(text: str, *, keep_newlines: bool = True) -> str:
    """``text`` with every control character shown as an escape (``\\x1b``, ``\\u202e``).

    Tab and newline are kept, unless ``keep_newlines=False`` (one-line contexts).

    >>> escape_controls("a\\rb\\u202ec"), escape_controls("a\\nb", keep_newlines=False)
    ('a\\\\rb\\\\u202ec', 'a\\\\nb')
    >>> escape_controls("x\\ud800y")
    'x\\\\ud800y'
    """
    pattern = CONTROL if keep_newlines else _CONTROL_OR_NEWLINE
    return pattern.sub(_escape_named, text) if pattern.search(text) else text


def _escape_named(match: re.Match[str]) -> str:
    char = match.group()
    return {"\n": "\\n", "\t": "\\t", "\r": "\\r"}.get(char) or _escape(match)


def json_escape_controls(text: str) -> str:
    """JSON text with the control characters JSON allows raw written as ``\\uXXXX`` escapes.

    The result decodes to the same value; no character in it starts a line or reorders text.

    >>> import json
    >>> s = json_escape_controls(json.dumps("a\\u2028b\\x85c", ensure_ascii=False))
    >>> s, json.loads(s) == "a\\u2028b\\x85c"
    ('"a\\\\u2028b\\\\u0085c"', True)
    """
    return CONTROL.sub(lambda m: f"\\u{ord(m.group()):04x}", text)


def safe_repr(value: Any) -> str:
    """``repr(value)``, or ``<TypeName object (repr failed: Error)>`` when that raises.

    >>> class Broken:
    ...     def __repr__(self) -> str:
    ...         raise RuntimeError("no")
    >>> safe_repr(Broken()), safe_repr("a")
    ('<Broken object (repr failed: RuntimeError)>', "'a'")
    """
    try:
        return repr(value)
    except Exception as exc:  # a broken __repr__ must never hide the real problem
        return f"<{type(value).__name__} object (repr failed: {type(exc).__name__})>"


def safe_str(value: Any) -> str:
    """``str(value)``, or ``<TypeName object (str failed: Error)>`` when that raises.

    >>> class Broken:
    ...     def __str__(self) -> str:
    ...         raise ValueError("no")
    >>> safe_str(Broken())
    '<Broken object (str failed: ValueError)>'
    """
    try:
        return str(value)
    except Exception as exc:  # a broken __str__ must never break a report
        return f"<{type(value).__name__} object (str failed: {type(exc).__name__})>"


# -- edit distance ---------------------------------------------------------------------------------


def edit_distance(a: str, b: str) -> int:
    """The Levenshtein distance: insertions, deletions and substitutions, one each."""
    import Levenshtein  # third-party C extension, deferred: see the module docstring

    distance: int = Levenshtein.distance(a, b)
    return distance


# -- suggestions for misspelt names ----------------------------------------------------------------

CUTOFF = 0.6
"""How alike a word and a suggestion must be (``difflib``'s ratio), unless a caller says."""


def closest_word(word: str, choices: Iterable[str], *, cutoff: float = CUTOFF) -> str | None:
    """The choice most like ``word`` (at least ``cutoff`` alike), or None.

    Args:
        word: The misspelt word.
        choices: The known words.
        cutoff: The least similarity (0 to 1) a suggestion must have.

    Returns:
        The closest choice, or None when none is close enough.

    >>> closest_word("tpyo", ["type", "kind"], cutoff=0.5)
    'type'
    >>> closest_word("zzz", ["type"]) is None
    True
    """
    import difflib  # imported for the first suggestion, not with the package

    close = difflib.get_close_matches(word, list(choices), n=1, cutoff=cutoff)
    return close[0] if close else None


def did_you_mean(word: str, choices: Iterable[str], *, cutoff: float = CUTOFF) -> str:
    """`` (did you mean 'x'?)`` for the closest choice, or ``''`` when none is close.

    >>> "unknown key 'nme'" + did_you_mean("nme", ["name"])
    "unknown key 'nme' (did you mean 'name'?)"
    """
    close = closest_word(word, choices, cutoff=cutoff)
    return "" if close is None else f" (did you mean {close!r}?)"


def choice_list(choices: Sequence[object]) -> str:
    """``'a'``, ``'a' or 'b'``, or ``one of 'a', 'b', 'c'``.

    >>> choice_list(["local", "mcp"])
    "'local' or 'mcp'"
    >>> choice_list(["a", "b", "c"])
    "one of 'a', 'b', 'c'"
    """
    shown = [repr(c) for c in choices]
    if len(shown) == 1:
        return shown[0]
    if len(shown) == 2:
        return f"{shown[0]} or {shown[1]}"
    return "one of " + ", ".join(shown)


def unknown_key_message(
    key: str, allowed: Sequence[str], *, what: str = "key", list_at_most: int | None = 12
) -> str:
    """``unknown key 'x' (did you mean 'y'?)``, else the allowed keys when there are few.

    Args:
        key: The unknown key (or operator, type… as ``what`` says).
        allowed: The known keys.
        what: The word for a key in the message.
        list_at_most: The most allowed keys the message lists; None lists them all.

    Returns:
        The message.

    >>> unknown_key_message("zz", ["name", "record"])
    "unknown key 'zz' (expected 'name' or 'record')"
    >>> unknown_key_message("zz", ["a", "b", "c"], what="operator", list_at_most=2)
    "unknown operator 'zz'"
    """
    close = closest_word(key, allowed)
    if close is not None:
        return f"unknown {what} {key!r} (did you mean {close!r}?)"
    if allowed and (list_at_most is None or len(allowed) <= list_at_most):
        return f"unknown {what} {key!r} (expected {choice_list(allowed)})"
    return f"unknown {what} {key!r}"


# -- text rendered on first read -------------------------------------------------------------------


class LazyText:
    """``fn(*args)`` rendered on the first ``str()`` and kept."""

    __slots__ = ("_args", "_fn", "_text")

    def __init__(self, fn: Callable[..., str], *args: Any) -> None:
        self._fn = fn
        self._args = args
        self._text: str | None = None

    def __str__(self) -> str:
        text = self._text
        if text is None:
            text = self._text = self._fn(*self._args)
            self._fn = self._args = None  # type: ignore[assignment]  # let them go
        return text

    def __repr__(self) -> str:
        return repr(str(self))

    def __eq__(self, other: object) -> bool:
        return str(self) == text_of(other) if isinstance(other, str | LazyText) else NotImplemented

    def __hash__(self) -> int:
        return hash(str(self))

    def __reduce__(self) -> tuple[type[str], tuple[str]]:
        return (str, (str(self),))


def text_of(value: Any) -> Any:
    """The text of a :class:`LazyText`, anything else unchanged (an attrs ``eq`` key too).

    >>> text_of(LazyText(str.upper, "ok"))
    'OK'
    """
    return str(value) if type(value) is LazyText else value


def settle(instance: object, field: str) -> str:
    """The text of a field that may hold a :class:`LazyText` (the field is left as it is: the
    :class:`LazyText` keeps its own rendered text).

    >>> class Holder:
    ...     def __init__(self) -> None:
    ...         self.note = LazyText(str.upper, "ok")
    >>> settle(Holder(), "note")
    'OK'
    """
    return text_of(getattr(instance, field))  # type: ignore[no-any-return]


def alias_repr(instance: Any) -> str:
    """The attrs repr, naming private text fields by their public alias (``message=``).

    >>> from agent_asserts.results import AssertionResult
    >>> alias_repr(AssertionResult("x", "pass", 1.0, message=LazyText(str, "ok")))[:60]
    "AssertionResult(name='x', status=<Status.PASS: 'pass'>, scor"
    """
    import attrs

    fields = attrs.fields(type(instance))
    shown = ", ".join(f"{f.alias}={getattr(instance, f.alias or f.name)!r}" for f in fields)
    return f"{type(instance).__name__}({shown})"


__all__ = [
    "CONTROL",
    "CUTOFF",
    "LazyText",
    "alias_repr",
    "choice_list",
    "closest_word",
    "did_you_mean",
    "edit_distance",
    "escape_controls",
    "json_escape_controls",
    "safe_repr",
    "safe_str",
    "settle",
    "text_of",
    "unknown_key_message",
]
