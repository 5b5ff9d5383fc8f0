"""Telling, from a file's bytes alone, that a large JSON document cannot be streamed run by run.

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
>>> _ = file.write_text('{"eval\\\\u0043ases": []}')
>>> cannot_stream(file, ("evalCases",))
False
>>> sample_of({"a": [1, 2, 3, 4, {"b": [5, 6, 7, 8]}], "c": [{"d": 1}] * 5}, keep=2)
{'a': [1, 2], 'c': [{'d': 1}, {'d': 1}]}
"""

from __future__ import annotations

import mmap
import os
import re
from collections.abc import Iterable
from typing import Any, Final

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
    :func:`agent_asserts.record._stream.sample` gives for the same document."""
    if isinstance(data, dict):
        return {key: sample_of(value, keep) for key, value in data.items()}
    if isinstance(data, list):
        return [sample_of(item, keep) for item in data[:keep]]
    return data


__all__ = ["cannot_stream", "sample_of"]
