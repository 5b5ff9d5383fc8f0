"""Reading record JSON strictly: one helper for ``TrialRecord.load``, the adapters' ``read()``
and ``iter_jsonl``.

:mod:`json` silently keeps the last of duplicate keys, accepts ``NaN``/``Infinity`` (not
JSON), turns ``1e999`` into ``inf``, and lets a huge integer or a deeply nested document escape
as a bare ``ValueError`` or ``RecursionError``. :func:`parse_json` turns each into a
:class:`RecordError` naming the source, and a duplicate key, a constant, a too long integer or
an overflowing number by its JSON path. Valid documents pay only for the hooks: the tree is
walked for paths only when something was found.

>>> parse_json('{"steps": 1, "steps": 2, "usage": {"input_tokens": NaN}}', "run.json")
Traceback (most recent call last):
...
agent_asserts.record.errors.RecordError: invalid record: 2 problem(s)
  run.json: $.steps: duplicate key
  run.json: $.usage.input_tokens: invalid JSON: NaN is not a JSON value
"""

from __future__ import annotations

import json
import os
import sys
from typing import Any

from agent_asserts._files import not_regular, read_bytes
from agent_asserts.record.errors import Problem, RecordError
from agent_asserts.record.validators import child, paused_gc


class _Duplicated(dict[str, Any]):
    """An object with duplicate keys (the last value kept, the keys remembered)."""

    duplicates: list[str]


class _Constant:
    """Where a value JSON cannot hold stood: ``NaN``, ``Infinity``, ``-Infinity``, or a number
    too large for a float (``1e999``)."""

    def __init__(self, message: str) -> None:
        self.message = message


class _Duplicate:
    """A marker on the walk: ``key`` was given more than once."""


class _Scan:
    """The hooks of one parse, remembering whether anything needs reporting."""

    def __init__(self) -> None:
        self.found = False

    def pairs(self, pairs: list[tuple[str, Any]]) -> dict[str, Any]:
        out = dict(pairs)
        if len(out) == len(pairs):
            return out
        self.found = True
        seen: set[str] = set()
        duplicated = _Duplicated(out)
        duplicated.duplicates = []
        for key, _ in pairs:
            if key in seen and key not in duplicated.duplicates:
                duplicated.duplicates.append(key)
            seen.add(key)
        return duplicated

    def constant(self, name: str) -> _Constant:
        self.found = True
        return _Constant(f"{name} is not a JSON value")

    def integer(self, text: str) -> int | _Constant:
        try:
            return int(text)
        except ValueError:  # longer than sys.get_int_max_str_digits()
            self.found = True
            digits = len(text.lstrip("-"))
            limit = sys.get_int_max_str_digits()
            return _Constant(f"an integer of {digits} digits is too long (the limit is {limit})")

    def number(self, text: str) -> float | _Constant:
        value = float(text)
        if value - value == 0.0:  # finite
            return value
        self.found = True
        return _Constant(f"the number {text} is too large")


def _problems(data: Any, source: str | None) -> list[Problem]:
    """Every duplicate key and constant in ``data``, in document order (iteratively, so any
    depth :mod:`json` could parse can be walked)."""
    found: list[Problem] = []
    stack: list[tuple[str, Any]] = [("$", data)]
    while stack:
        path, value = stack.pop()
        if isinstance(value, _Constant):
            found.append(Problem(path, f"invalid JSON: {value.message}", source))
        elif isinstance(value, _Duplicate):
            found.append(Problem(path, "duplicate key", source))
        elif isinstance(value, dict):
            duplicates = value.duplicates if isinstance(value, _Duplicated) else ()
            for key, item in reversed(value.items()):
                stack.append((child(path, key), item))
                if key in duplicates:
                    stack.append((child(path, key), _Duplicate()))
        elif isinstance(value, list):
            stack.extend((child(path, i), v) for i, v in reversed(list(enumerate(value))))
    return found


def strict_loads(text: str, source: str | None = None) -> Any:
    """:func:`json.loads`, strictly: a syntax error stays a ``json.JSONDecodeError`` (for
    callers that fall back to another format); everything else is a :class:`RecordError`
    (see :func:`parse_json`).
    """
    scan = _Scan()
    try:
        with paused_gc():  # the parse builds acyclic containers only
            try:
                data = json.loads(
                    text,
                    object_pairs_hook=scan.pairs,
                    parse_constant=scan.constant,
                    parse_float=scan.number,
                )
            except json.JSONDecodeError:
                raise
            except ValueError:  # an integer longer than Python converts: find its path
                scan = _Scan()
                data = json.loads(
                    text,
                    object_pairs_hook=scan.pairs,
                    parse_constant=scan.constant,
                    parse_float=scan.number,
                    parse_int=scan.integer,
                )
    except RecursionError:
        message = "invalid JSON: the document is nested too deeply"
        raise RecordError([Problem("", message, source)]) from None
    if scan.found:
        raise RecordError(_problems(data, source))
    return data


def syntax_error(exc: json.JSONDecodeError, source: str | None) -> RecordError:
    """The :class:`RecordError` for a JSON syntax error: ``source:line:column: invalid JSON: …``.

    >>> try:
    ...     json.loads("[1,")
    ... except json.JSONDecodeError as exc:
    ...     print(syntax_error(exc, "run.json").problems[0])
    run.json:1:4: invalid JSON: Expecting value
    """
    where = f"{source}:{exc.lineno}:{exc.colno}" if source else f"{exc.lineno}:{exc.colno}"
    return RecordError([Problem("", f"invalid JSON: {exc.msg}", where)])


def parse_json(text: str, source: str | None = None) -> Any:
    """Parse JSON text strictly.

    Args:
        text: The JSON text.
        source: The file (or ``file:line``) named in the problems.

    Returns:
        The parsed data (plain dicts, lists and scalars).

    Raises:
        RecordError: A syntax error (``source:line:column: invalid JSON: …``), duplicate
            keys or ``NaN``/``Infinity``, an integer too long to convert or a number too large
            for a float (each by JSON path), or a document nested too deeply.

    >>> parse_json('{"events": []}')
    {'events': []}
    >>> parse_json('[' * 100000, "run.json")
    Traceback (most recent call last):
    ...
    agent_asserts.record.errors.RecordError: invalid record: 1 problem(s)
      run.json: invalid JSON: the document is nested too deeply
    """
    try:
        return strict_loads(text, source)
    except json.JSONDecodeError as exc:
        raise syntax_error(exc, source) from None


def read_text(path: str | os.PathLike[str]) -> tuple[str, str]:
    """The file's name and its UTF-8 text (a byte-order mark skipped).

    Raises:
        RecordError: The file is not UTF-8 (naming the file and the byte), is not a regular
            file or is over the size limit (:mod:`agent_asserts._files`).
        OSError: The file cannot be read.
    """
    name = os.fspath(path)
    return name, decode_text(read_raw(name), name)


def read_raw(path: str | os.PathLike[str]) -> bytes:
    """The bytes of a record file (refused as :func:`read_text` says).

    Raises:
        RecordError: The file is not a regular file or is over the size limit.
        OSError: The file cannot be read.
    """
    name = os.fspath(path)
    return read_bytes(name, lambda reason: RecordError([Problem("", reason, name)]))


def decode_text(raw: bytes, source: str) -> str:
    """UTF-8 text of a file's bytes (a byte-order mark skipped).

    Raises:
        RecordError: The bytes are not UTF-8 (naming ``source`` and the byte).

    >>> decode_text(b"\\xef\\xbb\\xbf{}", "run.json"), decode_text(b"\\xff", "run.json")
    Traceback (most recent call last):
    ...
    agent_asserts.record.errors.RecordError: invalid record: 1 problem(s)
      run.json: not UTF-8 text (byte 0)
    """
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise RecordError([Problem("", f"not UTF-8 text (byte {exc.start})", source)]) from None


def require_regular(path: str | os.PathLike[str]) -> None:
    """Refuse a record path that is not a regular file (a device, a FIFO, a dangling symbolic
    link) or is over the size limit, before anything opens it (:mod:`agent_asserts._files`).

    >>> require_regular("/dev/null")
    Traceback (most recent call last):
    agent_asserts.record.errors.RecordError: invalid record: 1 problem(s)
      /dev/null: not a regular file (a character device)
    """
    problem = not_regular(path)
    if problem is not None:
        raise RecordError([Problem("", problem, os.fspath(path))])


def load_json(path: str | os.PathLike[str]) -> tuple[str, Any]:
    """The file's name and its JSON data, read strictly (:func:`read_text`,
    :func:`parse_json`)."""
    name, text = read_text(path)
    return name, parse_json(text, name)


__all__ = [
    "decode_text",
    "load_json",
    "parse_json",
    "read_raw",
    "read_text",
    "require_regular",
    "strict_loads",
    "syntax_error",
]
