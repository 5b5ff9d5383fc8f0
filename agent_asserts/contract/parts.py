"""The two parts of a contract assertion: ``Binding`` (what to select) and ``Requirement``
(the relation that must hold); frozen attrs objects that check themselves when built.

>>> Binding("audits", "trace", where={"kind": "audit"}).shape.events
True
>>> Requirement("has_matching", "mutations", "audits", on=["operation_ref"], within="2s").within
2.0
>>> Requirement("equals", "status", "refunded", quantifier="evry")
Traceback (most recent call last):
...
agent_asserts.contract.problems.ContractError: quantifier: must be one of 'every', 'some', ...
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import attrs

from agent_asserts._values import MISSING
from agent_asserts.contract.durations import format_within, parse_within
from agent_asserts.contract.grammar import BindRef
from agent_asserts.contract.operators import Operator, operator_of
from agent_asserts.contract.paths import Extract, parse_extract
from agent_asserts.contract.problems import ContractError, ContractProblem, Problems
from agent_asserts.contract.validate import Shape, check_binding, check_requirement
from agent_asserts.matching import value_to_data


def _within(value: Any) -> float | None:
    if value is None:
        return None
    try:
        return parse_within(value)
    except ValueError as exc:
        raise ContractError([ContractProblem(("within",), str(exc))]) from None


def _strings(value: Any) -> tuple[str, ...]:
    if value is None:
        return ()
    if isinstance(value, str):
        return (value,)  # validated later: a bare string is reported as not a list
    return tuple(value)


def _freeze_where(value: Any) -> Mapping[str, Any]:
    return {} if value is None else dict(value)


@attrs.frozen
class Binding:
    """A named selection: ``from`` trace, initial_state, final_state or delta.

    Attributes:
        name: The name ``require`` uses.
        source: ``trace``, ``initial_state``, ``final_state`` or ``delta`` (``from:``).
        where: Trace: envelope fields and ``payload`` (partial, ``$``-operators allowed);
            delta: ``path`` (a pointer prefix) and ``op``.
        path: A JSON Pointer into a state (states only; default: the whole state).
        extract: ``<path>``, ``count``, ``first``, ``last`` or ``set(<path>)``.

    >>> Binding("refund", "trace", where={"kind": "tool_call"}, extract="first").shape.single
    True
    """

    name: str
    source: str
    where: Mapping[str, Any] = attrs.field(factory=dict, converter=_freeze_where)
    path: str | None = None
    extract: str | None = None

    def __attrs_post_init__(self) -> None:
        p = Problems()
        check_binding(p, **attrs.asdict(self, recurse=False))
        p.raise_if_any()

    @property
    def parsed_extract(self) -> Extract | None:
        """The parsed ``extract`` (None without one)."""
        return None if self.extract is None else parse_extract(self.extract)

    @property
    def shape(self) -> Shape:
        """One value or a selection, of events or not."""
        return Shape(self.source, self.parsed_extract)

    def to_dict(self) -> dict[str, Any]:
        """The dict/YAML form (``from:`` for ``source``).

        >>> Binding("s", "final_state", path="/orders/A1/status").to_dict()
        {'from': 'final_state', 'path': '/orders/A1/status'}
        """
        out: dict[str, Any] = {"from": self.source}
        if self.where:
            out["where"] = value_to_data(self.where)
        if self.path is not None:
            out["path"] = self.path
        if self.extract is not None:
            out["extract"] = self.extract
        return out


def _right_to_data(row: Operator, right: Any) -> Any:
    if isinstance(right, BindRef):
        return right.to_data()
    return right if row.right in ("schema", "criterion") else value_to_data(right)


@attrs.frozen
class Requirement:
    """The relation that must hold: ``op`` between ``left`` and ``right``.

    ``right`` is a binding name for has_matching, precedes and follows_within, and a literal
    (or a :class:`~agent_asserts.contract.grammar.BindRef`) for the others; ``quantifier``
    None means ``every``; ``within`` is read as seconds (``"500ms"``, ``"2s"``, ``1.5``).

    >>> Requirement("count_at_most", "refunds", 1).to_dict()
    {'op': 'count_at_most', 'left': 'refunds', 'right': 1}
    """

    op: str
    left: str
    right: Any = MISSING
    quantifier: str | None = None
    on: tuple[str, ...] = attrs.field(default=(), converter=_strings)
    within: float | None = attrs.field(default=None, converter=_within)
    matcher: str | None = None
    grounding: tuple[str, ...] = attrs.field(default=(), converter=_strings)
    custom: str | None = None

    def __attrs_post_init__(self) -> None:
        p = Problems()
        self.check(p, None)
        p.raise_if_any()

    def check(self, p: Problems, bindings: Mapping[str, Shape | None] | None) -> None:
        """Add this requirement's problems to ``p`` (names checked against ``bindings``)."""
        check_requirement(p, **attrs.asdict(self, recurse=False), bindings=bindings)

    @property
    def evaluator_type(self) -> str:
        """``semantic`` for judged matchers, ``custom`` for a custom one, else deterministic.

        >>> Requirement("matcher", "m", matcher="custom", custom="f").evaluator_type
        'custom'
        """
        return operator_of(self).evaluator_type

    @property
    def effective_quantifier(self) -> str:
        """The quantifier, ``every`` by default."""
        return self.quantifier or "every"

    def names(self) -> tuple[str, ...]:
        """Every binding name this requirement reads (left, right, ``$bind``, grounding)."""
        names = [self.left]
        if isinstance(self.right, BindRef):
            names.append(self.right.name)
        elif operator_of(self).right == "binding":
            names.append(self.right)
        names.extend(self.grounding)
        return tuple(dict.fromkeys(names))

    def to_dict(self) -> dict[str, Any]:
        """The dict/YAML form (``within`` as a duration, ``$bind`` for binding values)."""
        out: dict[str, Any] = {}
        if self.quantifier is not None:
            out["quantifier"] = self.quantifier
        out["op"] = self.op
        out["left"] = self.left
        if self.right is not MISSING:
            out["right"] = _right_to_data(operator_of(self), self.right)
        if self.on:
            out["on"] = list(self.on)
        if self.within is not None:
            out["within"] = format_within(self.within)
        if self.matcher is not None:
            out["matcher"] = self.matcher
        if self.grounding:
            out["grounding"] = list(self.grounding)
        if self.custom is not None:
            out["custom"] = self.custom
        return out


__all__ = ["Binding", "Requirement"]
