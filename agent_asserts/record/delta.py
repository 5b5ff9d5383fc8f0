"""JSON Pointers (RFC 6901) into the states, and D: the changes from the initial to the final
state, each named by its pointer.

JSON Pointer (RFC 6901): the addresses of state paths and delta entries.

A pointer is ``""`` (the whole document) or a sequence of ``/``-prefixed tokens in which ``~``
is written ``~0`` and ``/`` is written ``~1``.

>>> resolve({"orders": {"A1": {"status": "paid"}}}, "/orders/A1/status")
'paid'
>>> join("/orders", "a/b")
'/orders/a~1b'

The delta D: normalized changes from the initial state S0 to the final state Sf.

Dicts are compared key by key, recursively; lists and scalars are compared whole with strict
JSON equality (``True != 1``, ``2 == 2.0``). Paths are JSON Pointers (RFC 6901).

>>> for entry in compute_delta({"a": 1, "b": {"c": [1]}}, {"a": 1, "b": {"c": [2]}, "d": True}):
...     print(entry)
changed /b/c: [1] -> [2]
added /d: True
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal

import attrs

from agent_asserts._values import MISSING


def escape_token(token: str) -> str:
    """Escape one reference token: ``~`` becomes ``~0``, ``/`` becomes ``~1``.

    Args:
        token: A dict key (or list index written as a string).

    Returns:
        The escaped token, ready to be joined into a pointer.

    >>> escape_token("a/b~c")
    'a~1b~0c'
    """
    if "~" not in token and "/" not in token:
        return token
    return token.replace("~", "~0").replace("/", "~1")


def unescape_token(token: str) -> str:
    """Undo :func:`escape_token`; a ``~`` not followed by ``0`` or ``1`` is a ``ValueError``.

    Args:
        token: One escaped reference token.

    Returns:
        The original key.

    >>> unescape_token("a~1b~0c")
    'a/b~c'
    """
    if "~" not in token:
        return token
    pieces = token.split("~")
    out = [pieces[0]]
    for piece in pieces[1:]:
        if piece[:1] == "0":
            out.append("~" + piece[1:])
        elif piece[:1] == "1":
            out.append("/" + piece[1:])
        else:
            raise ValueError(f"invalid escape in JSON Pointer token {token!r}: use ~0 or ~1")
    return "".join(out)


def parse_pointer(pointer: str) -> tuple[str, ...]:
    """Split a JSON Pointer into its unescaped tokens.

    Args:
        pointer: ``""`` for the whole document, else a string starting with ``/``.

    Returns:
        The tokens, unescaped.

    Raises:
        ValueError: The pointer does not start with ``/`` or has an invalid ``~`` escape.

    >>> parse_pointer("/orders/a~1b/0")
    ('orders', 'a/b', '0')
    >>> parse_pointer("")
    ()
    >>> parse_pointer("orders")
    Traceback (most recent call last):
    ...
    ValueError: JSON Pointer must be '' or start with '/' (got 'orders')
    """
    if type(pointer) is str:
        kept = _parsed.get(pointer)
        if kept is not None:
            return kept
    if not isinstance(pointer, str):
        raise TypeError(f"JSON Pointer must be a str (got {pointer!r})")
    if pointer == "":
        return ()
    if not pointer.startswith("/"):
        raise ValueError(f"JSON Pointer must be '' or start with '/' (got {pointer!r})")
    tokens = tuple(unescape_token(token) for token in pointer[1:].split("/"))
    if type(pointer) is str:  # parsed once per distinct pointer (a bounded cache)
        if len(_parsed) >= 4096:
            _parsed.clear()
        _parsed[pointer] = tokens
    return tokens


_parsed: dict[str, tuple[str, ...]] = {}


def _list_index(token: str, length: int) -> int | None:
    if not token.isdigit() or not token.isascii() or (len(token) > 1 and token[0] == "0"):
        return None
    index = int(token)
    return index if index < length else None


def resolve(doc: Any, pointer: str) -> Any:
    """The value at ``pointer`` in ``doc``, or ``MISSING`` when there is none.

    Dict keys are looked up as strings; list items by decimal index (no leading zeros); a
    token into a scalar, an absent key or an out-of-range index gives ``MISSING``.

    Args:
        doc: A JSON document (dicts, lists, scalars).
        pointer: A JSON Pointer.

    Returns:
        The value found, or ``MISSING``.

    Raises:
        ValueError: The pointer is malformed.

    >>> doc = {"items": [{"sku": "A-1"}], "a/b": 1}
    >>> resolve(doc, "/items/0/sku")
    'A-1'
    >>> resolve(doc, "/a~1b")
    1
    >>> resolve(doc, "/items/5")
    MISSING
    >>> resolve(doc, "") is doc
    True
    """
    current = doc
    for token in parse_pointer(pointer):
        # plain JSON first: a dict needs no ABC isinstance check
        if type(current) is dict or isinstance(current, Mapping):
            current = current.get(token, MISSING)
            if current is MISSING:
                return MISSING
        elif isinstance(current, list | tuple):
            index = _list_index(token, len(current))
            if index is None:
                return MISSING
            current = current[index]
        else:
            return MISSING
    return current


def join(pointer: str, token: str | int) -> str:
    """Append one (unescaped) token to a pointer.

    Args:
        pointer: The parent pointer (``""`` for the root).
        token: A dict key or a list index.

    Returns:
        The child pointer.

    >>> join("", "orders")
    '/orders'
    >>> join("/items", 2)
    '/items/2'
    >>> join("/m", "~x")
    '/m/~0x'
    """
    return f"{pointer}/{escape_token(str(token))}"


DeltaOp = Literal["added", "removed", "changed"]


@attrs.frozen
class DeltaEntry:
    """One change between two states.

    Attributes:
        path: JSON Pointer of the changed value (``""`` = the whole state).
        op: ``added``, ``removed`` or ``changed``.
        before: The initial value (``MISSING`` for ``added``).
        after: The final value (``MISSING`` for ``removed``).

    >>> DeltaEntry("/orders/A1/status", "changed", "paid", "refunded").to_dict()
    {'path': '/orders/A1/status', 'op': 'changed', 'before': 'paid', 'after': 'refunded'}
    """

    path: str
    op: DeltaOp
    before: Any = MISSING
    after: Any = MISSING

    def to_dict(self) -> dict[str, Any]:
        """The JSON form; ``before``/``after`` are omitted when ``MISSING``.

        >>> DeltaEntry("/x", "added", after=1).to_dict()
        {'path': '/x', 'op': 'added', 'after': 1}
        """
        out: dict[str, Any] = {"path": self.path, "op": self.op}
        if self.before is not MISSING:
            out["before"] = self.before
        if self.after is not MISSING:
            out["after"] = self.after
        return out

    def __str__(self) -> str:
        if self.op == "added":
            return f"added {self.path}: {self.after!r}"
        if self.op == "removed":
            return f"removed {self.path}: {self.before!r}"
        return f"changed {self.path}: {self.before!r} -> {self.after!r}"


def json_equal(a: Any, b: Any) -> bool:
    """Strict JSON equality: booleans never equal numbers, ``2 == 2.0``, deep for containers.

    Args:
        a: A JSON value.
        b: A JSON value.

    Returns:
        Whether both denote the same JSON value.

    >>> json_equal(True, 1), json_equal(2, 2.0), json_equal({"a": [1]}, {"a": [1.0]})
    (False, True, True)
    """
    if type(a) is str and type(b) is str:  # plain JSON first: no ABC isinstance checks
        return a == b
    if isinstance(a, bool) or isinstance(b, bool):
        return isinstance(a, bool) and isinstance(b, bool) and a == b
    if isinstance(a, Mapping):
        if not isinstance(b, Mapping) or len(a) != len(b):
            return False
        return all(key in b and json_equal(value, b[key]) for key, value in a.items())
    if isinstance(a, list | tuple):
        if not isinstance(b, list | tuple) or len(a) != len(b):
            return False
        return all(json_equal(x, y) for x, y in zip(a, b, strict=True))
    if isinstance(a, int | float):
        return isinstance(b, int | float) and a == b
    if isinstance(b, Mapping | list | tuple | int | float):
        return False
    return bool(a == b)


def _diff(before: Any, after: Any, path: str, out: list[DeltaEntry]) -> None:
    if isinstance(before, Mapping) and isinstance(after, Mapping):
        for key, old in before.items():
            child = join(path, key)
            if key in after:
                _diff(old, after[key], child, out)
            else:
                out.append(DeltaEntry(child, "removed", before=old))
        for key, new in after.items():
            if key not in before:
                out.append(DeltaEntry(join(path, key), "added", after=new))
    elif not json_equal(before, after):
        out.append(DeltaEntry(path, "changed", before=before, after=after))


def compute_delta(initial: Any, final: Any) -> tuple[DeltaEntry, ...]:
    """The changes from ``initial`` to ``final``.

    Entries come in document order: the keys of ``initial`` (changed or removed, recursively),
    then the keys only ``final`` has. A value that is not a dict on both sides (a list, a
    scalar, or a dict replaced by something else) is one ``changed`` entry.

    Args:
        initial: The state before the run (JSON data).
        final: The state after the run (JSON data).

    Returns:
        The delta entries; empty when the states are equal.

    >>> compute_delta({"a~b": 1}, {})
    (DeltaEntry(path='/a~0b', op='removed', before=1, after=MISSING),)
    >>> compute_delta({"n": 1}, {"n": True})
    (DeltaEntry(path='/n', op='changed', before=1, after=True),)
    >>> compute_delta([1], [1.0])
    ()
    """
    out: list[DeltaEntry] = []
    _diff(initial, final, "", out)
    return tuple(out)


__all__ = [
    "DeltaEntry",
    "DeltaOp",
    "compute_delta",
    "escape_token",
    "join",
    "json_equal",
    "parse_pointer",
    "resolve",
    "unescape_token",
]
