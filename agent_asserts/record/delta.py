"""The delta D: normalized changes from the initial state S0 to the final state Sf.

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
from agent_asserts.record.pointer import join

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


__all__ = ["DeltaEntry", "DeltaOp", "compute_delta", "json_equal"]
