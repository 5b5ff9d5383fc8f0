"""The rules of a binding, checked once for both the Python objects and the dict form.

:func:`check_binding` takes the raw values of one binding and adds each problem it finds to a
:class:`~agent_asserts.contract.problems.Problems` collector, with its key path;
:class:`Shape` says what a valid binding yields (one value or a selection, of events or not).

>>> shape_of("trace", "count").single, shape_of("trace", None).events
(True, True)
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any, Final

import attrs

from agent_asserts.contract.grammar import (
    DELTA_OPS,
    DELTA_WHERE,
    SOURCES,
    STATE_SOURCES,
    TRACE_WHERE,
)
from agent_asserts.contract.paths import Extract, event_path_problem, parse_extract
from agent_asserts.contract.problems import Problems, bad_choice
from agent_asserts.matching import Matcher
from agent_asserts.record import parse_pointer
from agent_asserts.record.validators import got, must_be_int, must_be_number, must_be_str

UNCHECKED: Final = object()
"""A value whose problems were already reported (its checks are skipped)."""


@attrs.frozen
class Shape:
    """What a binding yields: one value or a selection, of events or not.

    >>> Shape("final_state").single, Shape("trace", Extract("first")).events
    (True, True)
    """

    source: str
    extract: Extract | None = None

    @property
    def single(self) -> bool:
        """A state path, or ``extract: count | first | last``."""
        return self.source in STATE_SOURCES or (self.extract is not None and self.extract.single)

    @property
    def events(self) -> bool:
        """Trace events (no extract, or ``first``/``last``): they have positions and times."""
        kind = None if self.extract is None else self.extract.kind
        return self.source == "trace" and kind in (None, "first", "last")

    def describe(self) -> str:
        """``a final_state path`` / ``extract: count``."""
        if self.source in STATE_SOURCES:
            return f"a {self.source} path"
        return f"extract: {self.extract.kind if self.extract else 'none'}"


def shape_of(source: Any, extract: Any) -> Shape | None:
    """The shape of raw binding values, or None when they are not valid."""
    if source not in SOURCES:
        return None
    if extract is None or source in STATE_SOURCES:
        return Shape(source)
    try:
        return Shape(source, parse_extract(extract))
    except (TypeError, ValueError):
        return None


NULL: Final = "is required (got null)"
"""The problem of a key written with a null value (``right: null`` apart, a literal null)."""


def check_binding(
    p: Problems, *, name: Any, source: Any, where: Any, path: Any, extract: Any
) -> None:
    """Problems of one binding (paths relative to the binding's mapping).

    Values already reported (:data:`UNCHECKED`, a null say) are skipped.

    >>> p = Problems(); check_binding(p, name="s", source="final_state", where=None,
    ...                               path="orders/A1", extract=None)
    >>> print(p.error())
    path: JSON Pointer must be '' or start with '/' (got 'orders/A1')
    """
    if not isinstance(name, str) or not name:
        p.add((), f"a binding name must be a non-empty string (got {name!r})")
    if source is UNCHECKED:
        return
    if source not in SOURCES:
        p.add(("from",), bad_choice(source, SOURCES))
        return
    if source in STATE_SOURCES:
        if where and where is not UNCHECKED:
            p.add(("where",), f"does not apply to {source} (a state binding reads path:)")
        if extract is not None and extract is not UNCHECKED:
            p.add(("extract",), f"does not apply to {source} (a state binding is one value)")
        if path is not None and path is not UNCHECKED:
            _check_pointer(p, ("path",), path)
        return
    if path is not None and path is not UNCHECKED:
        hint = "filter delta entries with where: {path: ...}" if source == "delta" else "use where:"
        p.add(("path",), f"does not apply to {source} ({hint})")
    if extract is not None and extract is not UNCHECKED:
        _check_extract(p, source, extract)
    if where is UNCHECKED or where is None:
        return
    if not isinstance(where, Mapping):
        p.add(("where",), f"must be a mapping (got {where!r})")
    elif source == "trace":
        _check_trace_where(p, where)
    else:
        _check_delta_where(p, where)


def _check_extract(p: Problems, source: str, extract: Any) -> None:
    try:
        parsed = parse_extract(extract)
    except (TypeError, ValueError) as exc:
        p.add(("extract",), str(exc))
        return
    if source == "trace" and parsed.path is not None:
        problem = event_path_problem(parsed.path)
        if problem is not None:
            p.add(("extract",), problem)


def _check_pointer(p: Problems, path: tuple[str, ...], value: Any) -> None:
    try:
        parse_pointer(value)
    except (TypeError, ValueError) as exc:
        p.add(path, str(exc))


def _where_entries(
    p: Problems, where: Mapping[str, Any], allowed: tuple[str, ...]
) -> Iterator[tuple[Any, Any]]:
    """The entries of ``where`` left to check: an unknown key or a null value is a problem."""
    for key, value in where.items():
        if key not in allowed:
            p.unknown_key(("where",), str(key), allowed)
        elif value is None:
            p.add(("where", key), NULL)
        else:
            yield key, value


def _check_trace_where(p: Problems, where: Mapping[str, Any]) -> None:
    for key, value in _where_entries(p, where, TRACE_WHERE):
        if key in ("kind", "event_type") and not isinstance(value, str):
            p.add(("where", key), f"must be a string (got {value!r})")
        else:
            problem = _envelope_type_problem(key, value)
            if problem is not None:
                p.add(("where", key), problem)


def _envelope_type_problem(key: str, value: Any) -> str | None:
    """A plain ``where`` value of the wrong type for its envelope field (matchers pass)."""
    if isinstance(value, Matcher):
        return None
    if key == "turn":
        return must_be_int(value, minimum=None)
    if key == "monotonic_time":
        return must_be_number(value)
    if key == "wall_time":
        if isinstance(value, str) or must_be_number(value) is None:
            return None
        return f"must be a string or a number (got {got(value)})"
    if key == "payload":
        return None if isinstance(value, Mapping) else f"must be a mapping (got {got(value)})"
    if key == "entity_refs":
        if not isinstance(value, list | tuple):
            return f"must be a list of strings (got {got(value)})"
        bad = [ref for ref in value if not isinstance(ref, str | Matcher)]
        return f"must be a list of strings (got {got(bad[0])} in it)" if bad else None
    return must_be_str(value)  # event_id, entity_ref and the string envelope fields


def _check_delta_where(p: Problems, where: Mapping[str, Any]) -> None:
    for key, value in _where_entries(p, where, DELTA_WHERE):
        if key == "path":
            _check_pointer(p, ("where", "path"), value)
        else:
            ops = value if isinstance(value, list | tuple) and value else [value]
            for op in ops:
                if op not in DELTA_OPS:
                    p.add(("where", "op"), bad_choice(op, DELTA_OPS))


__all__ = ["NULL", "UNCHECKED", "Shape", "check_binding", "shape_of"]
