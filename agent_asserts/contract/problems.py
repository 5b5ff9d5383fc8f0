"""Contract problems: the rules of the grammar, and every mistake of one contract, each with its
key path, in one error.

A contract is checked completely before it runs. Each problem names the key path where it was
written (``assertions[0].require.left``); :class:`ContractError` carries all of them.

>>> problems = Problems()
>>> problems.add(("assertions", 0, "require", "left"), "'mutatons' is not bound")
>>> print(problems.error())
assertions[0].require.left: 'mutatons' is not bound

The rules are checked once for both the Python objects and the dict form: every ``check_*``
function takes the raw values of one part (:func:`check_assertion`, :func:`check_requirement`,
:func:`check_binding`) and adds each problem it finds to a :class:`Problems` collector, with its
key path, so a whole contract is reported at once. The attrs objects call the same functions
when built in Python. :class:`Shape` says what a valid binding yields (one value or a
selection, of events or not).

>>> shape_of("trace", "count").single, shape_of("trace", None).events
(True, True)
>>> p = Problems(("require",))
>>> check_requirement(p, op="has_matching", left="mutatons", right="audits",
...                   bindings={"mutations": None, "audits": None})
>>> print(p.error())
2 problems in the contract:
  require.left: 'mutatons' is not bound (bound: 'audits', 'mutations')
  require.on: has_matching needs on: [fields] (the fields that must be equal)
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import Any, Final

import attrs

from agent_asserts._text import choice_list, closest_word, unknown_key_message
from agent_asserts._values import MISSING, PathPart, format_path
from agent_asserts.contract.grammar import (
    DELTA_OPS,
    DELTA_WHERE,
    QUANTIFIERS,
    SET_FIELDS,
    SEVERITIES,
    SOURCES,
    STATE_SOURCES,
    TRACE_WHERE,
    BindRef,
    Extract,
    event_path_problem,
    parse_extract,
    parse_item_path,
    parse_within,
)
from agent_asserts.contract.relations import MATCHER_OPERATORS, OPERATORS, Operator, row_of
from agent_asserts.errors import AgentAssertsError, Collector, Problem
from agent_asserts.matching import Matcher
from agent_asserts.record import parse_pointer
from agent_asserts.record.validators import got, must_be_int, must_be_number, must_be_str

KeyPath = tuple[PathPart, ...]
ContractProblem = Problem
"""One contract problem: a :class:`~agent_asserts.errors.Problem` whose ``path`` is the key
path (and ``key`` the key itself for a problem about a key, such as an unknown one).

>>> str(ContractProblem(("assertions", 0), "unknown key 'bnd'", key="bnd"))
"assertions[0]: unknown key 'bnd'"
"""


class ContractError(AgentAssertsError, ValueError):
    """A contract (or one of its parts) is malformed; ``problems`` lists every problem found.

    >>> err = ContractError([ContractProblem(("op",), "unknown op 'eqals'")])
    >>> str(err), len(err.problems)
    ("op: unknown op 'eqals'", 1)
    """

    def __init__(self, problems: Iterable[ContractProblem]) -> None:
        self.problems: tuple[ContractProblem, ...] = tuple(dict.fromkeys(problems))
        if len(self.problems) == 1:
            text = str(self.problems[0])
        else:
            lines = "\n".join(f"  {p}" for p in self.problems)
            text = f"{len(self.problems)} problems in the contract:\n{lines}"
        super().__init__(text)

    def __reduce__(self) -> tuple[type[ContractError], tuple[tuple[ContractProblem, ...]]]:
        return (type(self), (self.problems,))


class Problems(Collector):
    """Collects problems while a contract is read or built, under a path prefix.

    >>> p = Problems(("assertions", 1))
    >>> p.at("require").add(("op",), "unknown op 'x'")
    >>> [str(x) for x in p.problems]
    ["assertions[1].require.op: unknown op 'x'"]
    """

    error_type = ContractError

    def __init__(self, prefix: KeyPath = (), sink: list[Problem] | None = None) -> None:
        super().__init__(sink)
        self.prefix = prefix

    def at(self, *parts: PathPart) -> Problems:
        """A collector writing to the same list under a longer prefix."""
        return Problems((*self.prefix, *parts), self.problems)

    def add(self, path: KeyPath, message: str, *, key: str | None = None) -> None:
        """Record ``message`` at ``path`` (relative to the prefix)."""
        self.problems.append(Problem((*self.prefix, *path), message, key=key))

    def unknown_key(self, path: KeyPath, key: str, allowed: Sequence[str]) -> None:
        """Record ``unknown key 'x' (did you mean 'y'?)`` for ``key`` of the mapping at ``path``."""
        self.add(path, unknown_key_message(key, allowed, list_at_most=None), key=key)

    def error(self) -> ContractError:
        """A :class:`ContractError` with every problem recorded so far."""
        return ContractError(self.problems)


def bad_choice(value: object, allowed: Sequence[str]) -> str:
    """``must be one of … (got 'x')`` with a suggestion for a misspelt word.

    >>> bad_choice("evry", ["every", "some", "none"])
    "must be one of 'every', 'some', 'none' (got 'evry'; did you mean 'every'?)"
    """
    close = closest_word(value, allowed) if isinstance(value, str) else None
    hint = "" if close is None else f"; did you mean {close!r}?"
    return f"must be {choice_list(allowed)} (got {value!r}{hint})"


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
    "ContractError",
    "ContractProblem",
    "KeyPath",
    "PathPart",
    "Problems",
    "Shape",
    "bad_choice",
    "check_assertion",
    "check_binding",
    "check_requirement",
    "check_unique_ids",
    "format_path",
    "shape_of",
]
