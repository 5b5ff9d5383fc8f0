"""Reading a large JSON document piece by piece, in bounded memory, with the stdlib only.

:class:`JsonStream` walks a document's top level: the members of an object and the items of an
array are decoded one at a time (strictly, as :func:`~agent_asserts.record._json.parse_json`
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

import json
from collections.abc import Iterator
from typing import IO, Any, Final

from agent_asserts._depth import MAX_DEPTH, depth_message
from agent_asserts.record._json import _problems, _Scan
from agent_asserts.record.errors import Problem, RecordError
from agent_asserts.record.validators import child

CHUNK: Final = 1 << 16
_WHITESPACE: Final = " \t\r\n"


class JsonStream:
    """A cursor over JSON text read from ``handle`` in chunks.

    Args:
        handle: A text file (or ``io.StringIO``).
        source: The file name, for errors.
    """

    def __init__(self, handle: IO[str], source: str | None = None) -> None:
        self.handle = handle
        self.source = source
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
            raise RecordError(problems)
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


def sample(handle: IO[str], *, keep: int = 3, source: str | None = None) -> Any:
    """The document with every array cut to its first ``keep`` items, read in bounded memory.

    Raises:
        RecordError: Invalid JSON (naming the character offset and the JSON path).
    """
    stream = JsonStream(handle, source)
    data = stream.sampled(keep)
    stream.end()
    return data


def iter_runs(handle: IO[str], key: str, *, source: str | None = None) -> Iterator[tuple[str, Any]]:
    """The items of the top-level array (``key`` ``""``) or of the array under a top-level
    key, one at a time, each with its JSON path. Nothing is yielded when the key is absent.

    >>> import io
    >>> list(iter_runs(io.StringIO('[{"a": 1}, {"a": 2}]'), ""))
    [('$[0]', {'a': 1}), ('$[1]', {'a': 2})]
    """
    stream = JsonStream(handle, source)
    if key == "":
        yield from stream.items()
    else:
        for name, path in stream.members():
            if name == key and stream.peek() == "[":
                yield from stream.items(path)
            else:
                stream.sampled(0, path)
    stream.end()


def top_members(handle: IO[str], key: str, *, source: str | None = None) -> dict[str, Any]:
    """The top-level object's members other than ``key`` (read whole; ``key``'s value read and
    dropped item by item): the context each streamed run is given with.

    >>> import io
    >>> top_members(io.StringIO('{"id": 1, "data": [1, 2], "x": {"y": 2}}'), "data")
    {'id': 1, 'x': {'y': 2}}
    """
    stream = JsonStream(handle, source)
    out: dict[str, Any] = {}
    for name, path in stream.members():
        if name == key:
            stream.sampled(0, path)
        else:
            out[name] = stream.value(path)
    stream.end()
    return out


__all__ = ["JsonStream", "iter_runs", "sample", "top_members"]
