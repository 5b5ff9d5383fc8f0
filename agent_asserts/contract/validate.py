"""The rules of the grammar, checked once for both the Python objects and the dict form.

Every check function takes the raw values of one part (an assertion, a requirement, and a
binding: see :mod:`agent_asserts.contract.binding_rules`, re-exported here) and adds each
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
from typing import Any

from agent_asserts._values import MISSING
from agent_asserts.contract.binding_rules import NULL, UNCHECKED, Shape, check_binding, shape_of
from agent_asserts.contract.durations import parse_within
from agent_asserts.contract.grammar import (
    QUANTIFIERS,
    SEVERITIES,
    BindRef,
)
from agent_asserts.contract.operators import MATCHER_OPERATORS, OPERATORS, Operator, row_of
from agent_asserts.contract.paths import SET_FIELDS, event_path_problem, parse_item_path
from agent_asserts.contract.problems import Problems, bad_choice


def check_assertion(p: Problems, *, ident: Any, severity: Any, allow_empty: Any) -> None:
    """Problems of an assertion's own fields (``id``, ``severity``, ``allow_empty``).

    >>> p = Problems(); check_assertion(p, ident="a", severity="hgh", allow_empty="yes")
    >>> print(p.error())
    2 problems in the contract:
      severity: must be one of 'critical', 'high', 'medium', 'low' (got 'hgh'; did you mean 'high'?)
      allow_empty: must be true or false (got 'yes'; only true and false are booleans)
    """
    if ident is not UNCHECKED and (not isinstance(ident, str) or not ident):
        p.add(("id",), f"must be a non-empty string (got {ident!r})")
    if severity is not UNCHECKED and severity not in SEVERITIES:
        p.add(("severity",), bad_choice(severity, SEVERITIES))
    if allow_empty is not UNCHECKED and not isinstance(allow_empty, bool):
        hint = "; only true and false are booleans" if isinstance(allow_empty, str) else ""
        p.add(("allow_empty",), f"must be true or false (got {allow_empty!r}{hint})")


def check_unique_ids(p: Problems, ids: Sequence[Any]) -> None:
    """``'x' is used twice (also assertions[0])`` for each repeated assertion id.

    >>> p = Problems(); check_unique_ids(p, ["a", "b", "a"])
    >>> print(p.error())
    assertions[2].id: 'a' is used twice (also assertions[0])
    """
    seen: dict[str, int] = {}
    for index, ident in enumerate(ids):
        if isinstance(ident, str) and ident in seen:
            p.add(
                ("assertions", index, "id"),
                f"{ident!r} is used twice (also assertions[{seen[ident]}])",
            )
        elif isinstance(ident, str):
            seen[ident] = index


def _bound(
    p: Problems, key: tuple[str | int, ...], name: Any, bindings: Mapping[str, Any] | None
) -> bool:
    if name is UNCHECKED:
        return False
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
    to their shapes (None: unknown), or is None when the names cannot be checked yet.

    Values already reported (:data:`UNCHECKED`, a null say) are skipped."""
    left_ok = _bound(p, ("left",), left, bindings)
    if op is UNCHECKED:
        return
    if not isinstance(op, str) or op not in OPERATORS:  # a mapping or list is no name
        p.add(("op",), bad_choice(op, tuple(OPERATORS)))
        return
    left_shape = _shape(bindings, left) if left_ok else None
    if quantifier is not None and quantifier is not UNCHECKED:
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
    row = row_of(op, matcher)
    takes = None if row is None else row.right
    _check_right(p, row, right, bindings)
    events = [
        shape.events
        for shape in (left_shape, _shape(bindings, right) if takes == "binding" else None)
        if shape is not None
    ]
    _check_on(p, op, on, any(events))
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
    p: Problems, row: Operator | None, right: Any, bindings: Mapping[str, Any] | None
) -> None:
    """``row``: the operator's row, which says what ``right`` holds (None: an unknown
    matcher, reported by :func:`_check_matcher`)."""
    if right is UNCHECKED:
        return
    if right is MISSING:
        if row is None or row.needs_right:  # a custom matcher may need none
            p.add((), "required key 'right' missing", key="right")
        return
    takes = None if row is None else row.right
    if takes == "binding":
        _bound(p, ("right",), right, bindings)
    elif isinstance(right, BindRef):
        _bound(p, ("right", "$bind"), right.name, bindings)
    elif takes == "count":
        if isinstance(right, bool) or not isinstance(right, int) or right < 0:
            p.add(("right",), f"must be a whole number >= 0 (got {right!r})")
    elif takes == "schema":
        _check_schema(p, right)
    elif takes == "criterion" and not _text(right):
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


def _check_on(p: Problems, op: str, on: Any, events: bool) -> None:
    """``events``: a side of the relation is a selection of events, whose fields are known."""
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
                parts = parse_item_path(field)
            except ValueError as exc:
                p.add(("on", index), str(exc))
                continue
            problem = event_path_problem(parts, on=True) if events else None
            if problem is not None:
                p.add(("on", index), problem)


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
            if value and value is not UNCHECKED:
                p.add((key,), f"does not apply to {op} (only op: matcher)")
        return
    if matcher is UNCHECKED:
        return
    if matcher is None:
        p.add(
            (),
            f"required key 'matcher' missing (one of {', '.join(MATCHER_OPERATORS)})",
            key="matcher",
        )
        return
    if not isinstance(matcher, str) or matcher not in MATCHER_OPERATORS:
        p.add(("matcher",), bad_choice(matcher, tuple(MATCHER_OPERATORS)))
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
    elif grounding and grounding is not UNCHECKED:
        p.add(("grounding",), "applies only to matcher: grounded_semantic")
    if matcher == "custom":
        if custom is UNCHECKED:
            pass
        elif not isinstance(custom, str) or not custom:
            p.add(
                ("custom",) if custom is not None else (),
                "matcher: custom needs custom: <name given to register_matcher>"
                + ("" if custom is None else f" (got {custom!r})"),
                key=None if custom is not None else "custom",
            )
    elif custom is not None and custom is not UNCHECKED:
        p.add(("custom",), "applies only to matcher: custom")


__all__ = [
    "NULL",
    "UNCHECKED",
    "Shape",
    "check_assertion",
    "check_binding",
    "check_requirement",
    "check_unique_ids",
    "shape_of",
]
