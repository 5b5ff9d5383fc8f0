"""JSON Pointer (RFC 6901): the addresses of state paths and delta entries.

A pointer is ``""`` (the whole document) or a sequence of ``/``-prefixed tokens in which ``~``
is written ``~0`` and ``/`` is written ``~1``.

>>> resolve({"orders": {"A1": {"status": "paid"}}}, "/orders/A1/status")
'paid'
>>> join("/orders", "a/b")
'/orders/a~1b'
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

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


__all__ = ["escape_token", "join", "parse_pointer", "resolve", "unescape_token"]
