"""Safe text: the one rule for every piece of data that reaches a terminal, a report or a prompt.

Record data (a reply, an error, a judge's explanation) and suite data (case and check names)
may hold characters that act instead of showing: terminal escapes (``ESC [2J`` clears the
screen), carriage returns that overwrite a line, line separators that start a new line in some
viewers, bidirectional overrides that reorder what is shown ("Trojan Source"). They are:

- C0 controls (U+0000–U+001F) except tab and newline, DEL (U+007F), C1 controls
  (U+0080–U+009F, which include NEL U+0085);
- U+2028 LINE SEPARATOR, U+2029 PARAGRAPH SEPARATOR;
- the bidirectional controls U+061C, U+200E, U+200F, U+202A–U+202E and U+2066–U+2069.

:func:`escape_controls` shows each as a visible escape (``\\x1b``, ``\\u2028``); the text
summary, the command line, Markdown, HTML and JUnit reports use it, and the judge prompt uses
:func:`json_escape_controls` (the same characters as JSON ``\\uXXXX`` escapes, so the evidence
stays the same JSON). :func:`safe_repr` is the one ``repr`` that never raises.

>>> escape_controls("ok\\x1b[2J\\u2028done\\n")
'ok\\\\x1b[2J\\\\u2028done\\n'
"""

from __future__ import annotations

import re
from typing import Any, Final

_CONTROL_CLASS: Final = (
    "\x00-\x08\x0b-\x1f\x7f-\x9f\u2028\u2029\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069"
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


__all__ = ["CONTROL", "escape_controls", "json_escape_controls", "safe_repr", "safe_str"]
