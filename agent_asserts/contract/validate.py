"""The rules of the grammar, checked once for both the Python objects and the dict form.

Every check function takes the raw values of one part (a binding, a requirement) and adds each
problem it finds to a :class:`~agent_asserts.contract.problems.Problems` collector, with its
key path, so a whole contract is reported at once. The attrs objects call the same functions
when built in Python.

>>> from agent_asserts.contract.problems import Problems
>>> p = Problems(("require",))
>>> check_requirement(p, op="has_matching", left="mutatons", right="audits",
...                   bindings={"mutations": None, "audits": None})
>>> print(p.error())
2 problems in the contract:
  require.left: 'mutatons' is not bound (bound: 'audits', 'mutations')
  require.on: has_matching needs on: [fields] (the fields that must be equal)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Final

import attrs

from agent_asserts._missing import MISSING
from agent_asserts.contract.durations import parse_within
from agent_asserts.contract.grammar import (
    DELTA_OPS,
    DELTA_WHERE,
    JUDGED_MATCHERS,
    MATCHERS,
    OPS,
    QUANTIFIERS,
    SELECTION_OPS,
    SOURCES,
    STATE_SOURCES,
    TRACE_WHERE,
    BindRef,
)
from agent_asserts.contract.paths import SET_FIELDS, Extract, parse_extract, parse_item_path
from agent_asserts.contract.problems import Problems, bad_choice
from agent_asserts.record import parse_pointer

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


def check_binding(
    p: Problems, *, name: Any, source: Any, where: Any, path: Any, extract: Any
) -> None:
    """Problems of one binding (paths relative to the binding's mapping).

    >>> p = Problems(); check_binding(p, name="s", source="final_state", where=None,
    ...                               path="orders/A1", extract=None)
    >>> print(p.error())
    path: JSON Pointer must be '' or start with '/' (got 'orders/A1')
    """
    if not isinstance(name, str) or not name:
        p.add((), f"a binding name must be a non-empty string (got {name!r})")
    if source not in SOURCES:
        p.add(("from",), bad_choice(source, SOURCES))
        return
    if source in STATE_SOURCES:
        if where:
            p.add(("where",), f"does not apply to {source} (a state binding reads path:)")
        if extract is not None:
            p.add(("extract",), f"does not apply to {source} (a state binding is one value)")
        if path is not None:
            _check_pointer(p, ("path",), path)
        return
    if path is not None:
        hint = "filter delta entries with where: {path: ...}" if source == "delta" else "use where:"
        p.add(("path",), f"does not apply to {source} ({hint})")
    if extract is not None:
        try:
            parse_extract(extract)
        except (TypeError, ValueError) as exc:
            p.add(("extract",), str(exc))
    if where is UNCHECKED or where is None:
        return
    if not isinstance(where, Mapping):
        p.add(("where",), f"must be a mapping (got {where!r})")
    elif source == "trace":
        _check_trace_where(p, where)
    else:
        _check_delta_where(p, where)


def _check_pointer(p: Problems, path: tuple[str, ...], value: Any) -> None:
    try:
        parse_pointer(value)
    except (TypeError, ValueError) as exc:
        p.add(path, str(exc))


def _check_trace_where(p: Problems, where: Mapping[str, Any]) -> None:
    for key, value in where.items():
        if key not in TRACE_WHERE:
            p.unknown_key(("where",), str(key), TRACE_WHERE)
        elif key in ("kind", "event_type") and not isinstance(value, str):
            p.add(("where", key), f"must be a string (got {value!r})")


def _check_delta_where(p: Problems, where: Mapping[str, Any]) -> None:
    for key, value in where.items():
        if key not in DELTA_WHERE:
            p.unknown_key(("where",), str(key), DELTA_WHERE)
        elif key == "path":
            _check_pointer(p, ("where", "path"), value)
        else:
            ops = value if isinstance(value, list | tuple) and value else [value]
            for op in ops:
                if op not in DELTA_OPS:
                    p.add(("where", "op"), bad_choice(op, DELTA_OPS))


def _bound(
    p: Problems, key: tuple[str | int, ...], name: Any, bindings: Mapping[str, Any] | None
) -> bool:
    if not isinstance(name, str) or not name:
        p.add(key, f"must be a binding name (got {name!r})")
        return False
    if bindings is not None and name not in bindings:
        listed = ", ".join(repr(n) for n in sorted(bindings)) or "none"
        p.add(key, f"{name!r} is not bound (bound: {listed})")
        return False
    return True


def _shape(bindings: Mapping[str, Shape | None] | None, name: Any) -> Shape | None:
    if bindings is None or not isinstance(name, str):
        return None
    return bindings.get(name)


def check_requirement(
    p: Problems,
    *,
    op: Any,
    left: Any,
    right: Any = MISSING,
    quantifier: Any = None,
    on: Any = None,
    within: Any = None,
    matcher: Any = None,
    grounding: Any = None,
    custom: Any = None,
    bindings: Mapping[str, Shape | None] | None = None,
) -> None:
    """Problems of one ``require`` (paths relative to it); ``bindings`` maps the bound names
    to their shapes (None: unknown), or is None when the names cannot be checked yet."""
    left_ok = _bound(p, ("left",), left, bindings)
    if op not in OPS:
        p.add(("op",), bad_choice(op, OPS))
        return
    left_shape = _shape(bindings, left) if left_ok else None
    if quantifier is not None:
        if quantifier not in QUANTIFIERS:
            p.add(("quantifier",), bad_choice(quantifier, QUANTIFIERS))
        elif op == "count_at_most":
            p.add(
                ("quantifier",), "does not apply to count_at_most (it counts the whole selection)"
            )
        elif left_shape is not None and left_shape.single:
            p.add(
                ("quantifier",),
                f"applies to selections; {left!r} is one value ({left_shape.describe()})",
            )
    _check_right(p, op, right, matcher, bindings)
    _check_on(p, op, on)
    _check_within(p, op, within)
    _check_matcher(p, op, matcher, grounding, custom, bindings)
    if op in ("precedes", "follows_within") or (op == "has_matching" and within is not None):
        for key, name in (("left", left), ("right", right)):
            shape = _shape(bindings, name)
            if shape is not None and not shape.events:
                p.add(
                    (key,),
                    f"{op} compares events in time: {name!r} must be a trace binding without "
                    f"extract (or with first/last)",
                )
    extract = None if left_shape is None else left_shape.extract
    if op == "count_at_most" and left_shape is not None and extract is not None and extract.single:
        p.add(
            ("left",),
            f"count_at_most counts a selection; {left!r} is one value ({left_shape.describe()})",
        )


def _check_right(
    p: Problems, op: str, right: Any, matcher: Any, bindings: Mapping[str, Any] | None
) -> None:
    if right is UNCHECKED:
        return
    if right is MISSING:
        if not (op == "matcher" and matcher == "custom"):  # a custom matcher may need none
            p.add((), "required key 'right' missing", key="right")
        return
    if op in SELECTION_OPS:
        _bound(p, ("right",), right, bindings)
    elif isinstance(right, BindRef):
        _bound(p, ("right", "$bind"), right.name, bindings)
    elif op == "count_at_most":
        if isinstance(right, bool) or not isinstance(right, int) or right < 0:
            p.add(("right",), f"must be a whole number >= 0 (got {right!r})")
    elif op == "matches_schema":
        _check_schema(p, right)
    elif op == "matcher" and matcher in JUDGED_MATCHERS and not _text(right):
        p.add(("right",), f"must be the criterion text for the judge (got {right!r})")


def _text(value: Any) -> bool:
    return isinstance(value, str) and bool(value.strip())


def _check_schema(p: Problems, schema: Any) -> None:
    if not isinstance(schema, Mapping | bool):
        p.add(("right",), f"must be a JSON Schema (a mapping) (got {schema!r})")
        return
    try:
        import jsonschema
    except ImportError:
        return  # checked when evaluated: the result is then invalid, naming the extra

    try:
        jsonschema.validators.validator_for(schema).check_schema(schema)
    except jsonschema.SchemaError as exc:
        where = "".join(f"[{part!r}]" for part in exc.path)
        p.add(
            ("right",),
            f"is not a valid JSON Schema: {exc.message}{' at ' + where if where else ''}",
        )


def _check_on(p: Problems, op: str, on: Any) -> None:
    if on is UNCHECKED:
        return
    if not on:
        if op == "has_matching":
            p.add(("on",), "has_matching needs on: [fields] (the fields that must be equal)")
        return
    if op not in ("has_matching", "precedes", "follows_within"):
        p.add(("on",), f"does not apply to {op} (only has_matching, precedes, follows_within)")
        return
    if isinstance(on, str) or not isinstance(on, Sequence):
        p.add(("on",), f"must be a list of field names (got {on!r})")
        return
    seen: set[str] = set()
    for index, field in enumerate(on):
        if not isinstance(field, str) or not field:
            p.add(("on", index), f"must be a field name (got {field!r})")
            continue
        if field in seen:
            p.add(("on", index), f"{field!r} is listed twice")
        seen.add(field)
        if field not in SET_FIELDS:
            try:
                parse_item_path(field)
            except ValueError as exc:
                p.add(("on", index), str(exc))


def _check_within(p: Problems, op: str, within: Any) -> None:
    if within is UNCHECKED:
        return
    if within is None:
        if op == "follows_within":
            p.add(
                (),
                "required key 'within' missing (follows_within needs a time bound)",
                key="within",
            )
        return
    if op not in ("follows_within", "has_matching"):
        p.add(("within",), f"does not apply to {op} (only follows_within and has_matching)")
        return
    try:
        parse_within(within)
    except ValueError as exc:
        p.add(("within",), str(exc))


def _check_matcher(
    p: Problems,
    op: str,
    matcher: Any,
    grounding: Any,
    custom: Any,
    bindings: Mapping[str, Any] | None,
) -> None:
    if op != "matcher":
        for key, value in (("matcher", matcher), ("grounding", grounding), ("custom", custom)):
            if value:
                p.add((key,), f"does not apply to {op} (only op: matcher)")
        return
    if matcher is None:
        p.add((), f"required key 'matcher' missing (one of {', '.join(MATCHERS)})", key="matcher")
        return
    if matcher not in MATCHERS:
        p.add(("matcher",), bad_choice(matcher, MATCHERS))
        return
    if matcher == "grounded_semantic":
        if grounding is UNCHECKED:
            pass
        elif not grounding or isinstance(grounding, str) or not isinstance(grounding, Sequence):
            p.add(
                ("grounding",),
                f"grounded_semantic needs grounding: [binding names] (got {grounding!r})",
            )
        else:
            for index, name in enumerate(grounding):
                _bound(p, ("grounding", index), name, bindings)
    elif grounding:
        p.add(("grounding",), "applies only to matcher: grounded_semantic")
    if matcher == "custom":
        if not isinstance(custom, str) or not custom:
            p.add(
                ("custom",) if custom is not None else (),
                "matcher: custom needs custom: <name given to register_matcher>"
                + ("" if custom is None else f" (got {custom!r})"),
                key=None if custom is not None else "custom",
            )
    elif custom is not None:
        p.add(("custom",), "applies only to matcher: custom")


__all__ = ["UNCHECKED", "Shape", "check_binding", "check_requirement", "shape_of"]
