"""Reading record JSON strictly, whole or streamed: the one parser of record files (duplicate keys,
``NaN``, too long integers and too deep documents each reported by JSON path), the streaming of
large multi-run documents run by run, and the scan that tells when a large file need not be
streamed.

One strict parser serves ``TrialRecord.load``, the adapters' ``read()`` and ``iter_jsonl``.

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

Telling, from a file's bytes alone, that a large JSON document cannot be streamed run by run.

``iter_records`` streams a large document only when it is a multi-run container: a top-level
array, or a top-level object with a format's ``runs`` key (``evalCases``). Finding the format
takes a sampling pass over the whole document, which for the commonest large file — one
canonical record, an object holding a long ``events`` array — is a second full parse on top of
the one that reads it whole. :func:`cannot_stream` answers first, at the speed of a byte
search: an object whose text spells none of the ``runs`` keys (literally or through any JSON
escape) has no container, so it is read whole. Anything else — an array, a key found, even
inside a string — takes the sampling pass as before, so the answer is never wrong, only
sometimes cautious.

>>> import pathlib, tempfile
>>> file = pathlib.Path(tempfile.mkdtemp()) / "run.json"
>>> _ = file.write_text('{"events": [], "metadata": {"note": "no eval set"}}')
>>> cannot_stream(file, ("evalCases", "eval_cases"))
True
>>> _ = file.write_text('{"eval\\u0043ases": []}')
>>> cannot_stream(file, ("evalCases",))
False
>>> sample_of({"a": [1, 2, 3, 4, {"b": [5, 6, 7, 8]}], "c": [{"d": 1}] * 5}, keep=2)
{'a': [1, 2], 'c': [{'d': 1}, {'d': 1}]}

Reading a large JSON document piece by piece, in bounded memory, with the stdlib only.

:class:`JsonStream` walks a document's top level: the members of an object and the items of an
array are decoded one at a time (strictly, as :func:`~agent_asserts.record.parsing.parse_json`
does), so only the largest single item is ever in memory. :func:`sample` gives a copy of a
document with every array cut to its first items (what format detection looks at);
:func:`iter_runs` yields the items of the array holding one run each.

>>> import io
>>> text = '{"id": "x", "data": [{"n": 1}, {"n": 2}, {"n": 3}], "meta": {"a": [1, 2, 3, 4]}}'
>>> sample(io.StringIO(text), keep=2)
{'id': 'x', 'data': [{'n': 1}, {'n': 2}], 'meta': {'a': [1, 2]}}
>>> [(path, item) for path, item in iter_runs(io.StringIO(text), "data")][:2]
[('$.data[0]', {'n': 1}), ('$.data[1]', {'n': 2})]
"""

from __future__ import annotations

import codecs
import json
import mmap
import os
import re
import sys
from collections.abc import Iterable, Iterator
from typing import IO, Any, Final

from agent_asserts._files import not_regular, open_input, read_bytes
from agent_asserts._values import MAX_DEPTH, depth_message
from agent_asserts.record.errors import Problem, RecordError
from agent_asserts.record.validators import child


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


def _plain_dicts(data: Any) -> Any:
    """``data`` with every object that had duplicate keys as a plain ``dict`` (iteratively)."""
    if type(data) is _Duplicated:
        data = dict(data)
    stack = [data]
    while stack:
        value = stack.pop()
        if isinstance(value, dict):
            for key, item in value.items():
                if type(item) is _Duplicated:
                    item = value[key] = dict(item)
                if isinstance(item, dict | list):
                    stack.append(item)
        elif isinstance(value, list):
            for index, item in enumerate(value):
                if type(item) is _Duplicated:
                    item = value[index] = dict(item)
                if isinstance(item, dict | list):
                    stack.append(item)
    return data


def _found(data: Any, source: str | None, duplicates: list[Problem] | None) -> Any:
    """``data`` once its problems are known: a :class:`RecordError` listing them, unless they
    are all duplicate keys and ``duplicates`` collects them (the last value of each kept)."""
    problems = _problems(data, source)
    if duplicates is None or any(p.message != "duplicate key" for p in problems):
        raise RecordError(problems)
    duplicates.extend(problems)
    return _plain_dicts(data)


def strict_loads(
    text: str, source: str | None = None, *, duplicates: list[Problem] | None = None
) -> Any:
    """:func:`json.loads`, strictly: a syntax error stays a ``json.JSONDecodeError`` (for
    callers that fall back to another format); everything else is a :class:`RecordError`
    (see :func:`parse_json`). With a ``duplicates`` list, duplicate keys (and nothing else
    found) are added to it as problems, the last value of each kept.

    >>> found = []
    >>> strict_loads('{"a": 1, "a": 2}', "run.json", duplicates=found), found
    ({'a': 2}, [Problem(path='$.a', message='duplicate key', source='run.json')])
    """
    scan = _Scan()
    try:
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
        return _found(data, source, duplicates)
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


def parse_json(
    text: str, source: str | None = None, *, duplicates: list[Problem] | None = None
) -> Any:
    """Parse JSON text strictly.

    Args:
        text: The JSON text.
        source: The file (or ``file:line``) named in the problems.
        duplicates: When given, duplicate keys are added to it instead of raised (when nothing
            else is wrong), the last value of each kept: the caller decides once it knows the
            document's format (a canonical record refuses them, a foreign trace keeps the last
            value, as its producer's JSON reader did).

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
        return strict_loads(text, source, duplicates=duplicates)
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


def require_utf8(path: str | os.PathLike[str], source: str, chunk: int = 1 << 20) -> None:
    """Refuse a file that is not UTF-8 before it is read as text piece by piece, naming the
    first bad byte as :func:`decode_text` does (read in chunks: memory stays bounded).

    Raises:
        RecordError: The bytes are not UTF-8 (naming ``source`` and the byte's offset).

    >>> import pathlib, tempfile
    >>> file = pathlib.Path(tempfile.mkdtemp()) / "run.json"
    >>> _ = file.write_bytes(b'{"a": "caf\\xc3\\xa9 \\xff"}')
    >>> require_utf8(file, "run.json", chunk=4)
    Traceback (most recent call last):
    ...
    agent_asserts.record.errors.RecordError: invalid record: 1 problem(s)
      run.json: not UTF-8 text (byte 13)
    """
    decoder = codecs.getincrementaldecoder("utf-8")()
    offset = 0  # bytes handed to the decoder before this chunk
    with open_input(
        path, lambda why: RecordError([Problem("", why, source)]), whole=False
    ) as handle:
        while True:
            data = handle.read(chunk)
            pending = len(decoder.getstate()[0])
            try:
                decoder.decode(data, final=not data)
            except UnicodeDecodeError as exc:
                byte = offset - pending + exc.start
                raise RecordError([Problem("", f"not UTF-8 text (byte {byte})", source)]) from None
            if not data:
                return
            offset += len(data)


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


_FIRST: Final = re.compile(rb"(?:\xef\xbb\xbf)?[ \t\r\n]*(.)", re.DOTALL)
_SHORT: Final = {'"': b'\\"', "\\": b"\\\\", "/": b"\\/", "\b": b"\\b", "\f": b"\\f"}
_SHORT_MORE: Final = {"\n": b"\\n", "\r": b"\\r", "\t": b"\\t"}


def _hex(code: int) -> bytes:
    """``\\uXXXX`` for one UTF-16 code unit, hex digits in either case."""
    digits = b"".join(
        b"[" + d.encode() + d.upper().encode() + b"]" if d.isalpha() else d.encode()
        for d in f"{code:04x}"
    )
    return rb"\\u" + digits


def _escapes(char: str) -> list[bytes]:
    """The regular expressions of every escape that spells ``char`` in a JSON string."""
    out = []
    short = _SHORT.get(char) or _SHORT_MORE.get(char)
    if short is not None:
        out.append(re.escape(short))
    code = ord(char)
    if code > 0xFFFF:  # a surrogate pair
        code -= 0x10000
        out.append(_hex(0xD800 + (code >> 10)) + _hex(0xDC00 + (code & 0x3FF)))
    else:
        out.append(_hex(code))
    return out


def cannot_stream(path: str | os.PathLike[str], keys: Iterable[str]) -> bool:
    """Whether the JSON document in ``path`` is surely not a multi-run container: it starts
    with ``{`` and its text spells none of ``keys`` as a string, literally or escaped (the
    key ``""`` names a top-level array, which an object is not).

    Args:
        path: The file (UTF-8, an optional byte-order mark).
        keys: The ``runs`` keys of the registered formats.
    """
    keys = [key for key in keys if key]
    with open(path, "rb") as handle:
        if os.fstat(handle.fileno()).st_size == 0:
            return False
        with mmap.mmap(handle.fileno(), 0, access=mmap.ACCESS_READ) as text:
            first = _FIRST.match(text)
            if first is None or first.group(1) != b"{":
                return False
            if any(text.find(b'"' + key.encode() + b'"') >= 0 for key in keys):
                return False
            escapes = sorted({e for key in keys for char in key for e in _escapes(char)})
            return not escapes or re.search(b"|".join(escapes), text) is None


def sample_of(data: Any, keep: int = 3) -> Any:
    """Parsed data with every array cut to its first ``keep`` items: what
    :func:`agent_asserts.record.parsing.sample` gives for the same document."""
    if isinstance(data, dict):
        return {key: sample_of(value, keep) for key, value in data.items()}
    if isinstance(data, list):
        return [sample_of(item, keep) for item in data[:keep]]
    return data


CHUNK: Final = 1 << 16
_WHITESPACE: Final = " \t\r\n"


class JsonStream:
    """A cursor over JSON text read from ``handle`` in chunks.

    Args:
        handle: A text file (or ``io.StringIO``).
        source: The file name, for errors.
        duplicates: When given, duplicate keys are added to it instead of raised (when nothing
            else is wrong), the last value of each kept (see :func:`parse_json`).
    """

    def __init__(
        self, handle: IO[str], source: str | None = None, *,
        duplicates: list[Problem] | None = None,
    ) -> None:  # fmt: skip
        self.handle = handle
        self.source = source
        self.duplicates = duplicates
        self.buf = ""
        self.pos = 0
        self.offset = 0  # characters dropped from the front of ``buf``
        self.eof = False

    def _more(self, size: int = CHUNK) -> bool:
        """Read more text (dropping what was consumed); False at the end of the file."""
        if self.eof:
            return False
        chunk = self.handle.read(size)
        if self.pos:
            self.offset += self.pos
            self.buf = self.buf[self.pos :]
            self.pos = 0
        if not chunk:
            self.eof = True
            return False
        self.buf += chunk
        return True

    def error(self, message: str, path: str = "") -> RecordError:
        where = f"char {self.offset + self.pos}"
        source = f"{self.source}: {where}" if self.source else where
        return RecordError([Problem(path, f"invalid JSON: {message}", source)])

    def peek(self) -> str:
        """The next non-blank character ('' at the end), without consuming it."""
        while True:
            while self.pos < len(self.buf) and self.buf[self.pos] in _WHITESPACE:
                self.pos += 1
            if self.pos < len(self.buf):
                return self.buf[self.pos]
            if not self._more():
                return ""

    def expect(self, chars: str, path: str = "") -> str:
        found = self.peek()
        if not found or found not in chars:
            wanted = " or ".join(repr(c) for c in chars)
            raise self.error(f"expected {wanted} (got {found!r})", path)
        self.pos += 1
        return found

    def value(self, path: str = "$") -> Any:
        """Decode the next value strictly (duplicate keys, ``NaN``… are errors at ``path``)."""
        self.peek()
        size = CHUNK
        while True:
            scan = _Scan()
            decoder = json.JSONDecoder(
                object_pairs_hook=scan.pairs,
                parse_constant=scan.constant,
                parse_float=scan.number,
                parse_int=scan.integer,
            )
            try:
                data, end = decoder.raw_decode(self.buf, self.pos)
            except json.JSONDecodeError as exc:
                # a value cut by the end of the buffer fails near that end (an escape, a
                # literal) or, for a string, at its opening quote
                near_end = exc.pos >= len(self.buf) - 16
                incomplete = near_end or exc.msg.startswith("Unterminated")
                if incomplete and self._more(size):
                    size *= 2
                    continue
                self.pos = exc.pos
                raise self.error(exc.msg, path) from None
            except RecursionError:
                raise self.error("the document is nested too deeply", path) from None
            if end == len(self.buf) and self._more(size):  # a number may go on
                size *= 2
                continue
            self.pos = end
            break
        if scan.found:
            problems = [
                Problem(path + p.path[1:], p.message, self.source) for p in _problems(data, None)
            ]
            if self.duplicates is None or any(p.message != "duplicate key" for p in problems):
                raise RecordError(problems)
            self.duplicates.extend(problems)
            return _plain_dicts(data)
        return data

    def item_paths(self, path: str = "$") -> Iterator[str]:
        """Walk the array starting here: the path of each item, which the caller reads
        (:meth:`value`, :meth:`sampled`…) before asking for the next."""
        self.expect("[", path)
        if self.peek() == "]":
            self.pos += 1
            return
        index = 0
        while True:
            yield f"{path}[{index}]"
            index += 1
            if self.expect(",]", path) == "]":
                return

    def items(self, path: str = "$") -> Iterator[tuple[str, Any]]:
        """The items of the array starting here, one at a time, with their paths."""
        for item_path in self.item_paths(path):
            yield item_path, self.value(item_path)

    def members(self, path: str = "$") -> Iterator[tuple[str, str]]:
        """The keys of the object starting here, each with its path; the caller consumes each
        member's value (:meth:`value`, :meth:`items` or :meth:`sampled`) before the next."""
        self.expect("{", path)
        if self.peek() == "}":
            self.pos += 1
            return
        while True:
            if self.peek() != '"':
                raise self.error("expected a key", path)
            key = self.value(path)
            self.expect(":", path)
            yield key, child(path, key)
            if self.expect(",}", path) == "}":
                return

    def sampled(self, keep: int, path: str = "$", level: int = 1) -> Any:
        """The next value with every array cut to its first ``keep`` items (the rest read and
        dropped one at a time); containers nested past ``MAX_DEPTH`` are an error."""
        first = self.peek()
        if first in ("[", "{") and level > MAX_DEPTH:
            raise RecordError([Problem(path, depth_message(), self.source)])
        if first == "[":
            out = []
            for item_path, _ in _dropping(self, keep, path):
                out.append(self.sampled(keep, item_path, level + 1))
            return out
        if first == "{":
            return {
                key: self.sampled(keep, key_path, level + 1) for key, key_path in self.members(path)
            }
        return self.value(path)

    def end(self) -> None:
        """Check that nothing but blanks follows."""
        if self.peek():
            raise self.error("extra data after the document")


def _dropping(stream: JsonStream, keep: int, path: str) -> Iterator[tuple[str, None]]:
    """Walk an array: yields the paths of its first ``keep`` items for the caller to read,
    then reads and drops the others."""
    for index, item_path in enumerate(stream.item_paths(path)):
        if index < keep:
            yield item_path, None
        else:
            stream.value(item_path)


def sample(
    handle: IO[str], *, keep: int = 3, source: str | None = None,
    duplicates: list[Problem] | None = None,
) -> Any:  # fmt: skip
    """The document with every array cut to its first ``keep`` items, read in bounded memory
    (``duplicates`` as :class:`JsonStream` takes it).

    Raises:
        RecordError: Invalid JSON (naming the character offset and the JSON path).
    """
    stream = JsonStream(handle, source, duplicates=duplicates)
    data = stream.sampled(keep)
    stream.end()
    return data


def iter_runs(
    handle: IO[str], key: str, *, source: str | None = None,
    duplicates: list[Problem] | None = None,
) -> Iterator[tuple[str, Any]]:  # fmt: skip
    """The items of the top-level array (``key`` ``""``) or of the array under a top-level
    key, one at a time, each with its JSON path. Nothing is yielded when the key is absent.

    >>> import io
    >>> list(iter_runs(io.StringIO('[{"a": 1}, {"a": 2}]'), ""))
    [('$[0]', {'a': 1}), ('$[1]', {'a': 2})]
    """
    stream = JsonStream(handle, source, duplicates=duplicates)
    if key == "":
        yield from stream.items()
    else:
        for name, path in stream.members():
            if name == key and stream.peek() == "[":
                yield from stream.items(path)
            else:
                stream.sampled(0, path)
    stream.end()


def top_members(
    handle: IO[str], key: str, *, source: str | None = None,
    duplicates: list[Problem] | None = None,
) -> dict[str, Any]:  # fmt: skip
    """The top-level object's members other than ``key`` (read whole; ``key``'s value read and
    dropped item by item): the context each streamed run is given with. A member given twice
    is a duplicate key (collected in ``duplicates`` when given, the last value kept).

    >>> import io
    >>> top_members(io.StringIO('{"id": 1, "data": [1, 2], "x": {"y": 2}}'), "data")
    {'id': 1, 'x': {'y': 2}}
    >>> top_members(io.StringIO('{"id": 1, "id": 2, "data": []}'), "data")
    Traceback (most recent call last):
    ...
    agent_asserts.record.errors.RecordError: invalid record: 1 problem(s)
      $.id: duplicate key
    """
    stream = JsonStream(handle, source, duplicates=duplicates)
    out: dict[str, Any] = {}
    seen: set[str] = set()
    for name, path in stream.members():
        if name in seen:
            problem = Problem(path, "duplicate key", source)
            if duplicates is None:
                raise RecordError([problem])
            duplicates.append(problem)
        seen.add(name)
        if name == key:
            stream.sampled(0, path)
        else:
            out[name] = stream.value(path)
    stream.end()
    return out


__all__ = [
    "JsonStream",
    "cannot_stream",
    "decode_text",
    "iter_runs",
    "load_json",
    "parse_json",
    "read_raw",
    "read_text",
    "require_regular",
    "require_utf8",
    "sample",
    "sample_of",
    "strict_loads",
    "syntax_error",
    "top_members",
]
