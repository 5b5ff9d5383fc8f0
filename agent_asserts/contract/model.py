"""The contract objects: ``Condition``, ``ContractAssertion``, ``Contract`` (frozen attrs; each
checks itself when built), over the parts ``Binding`` and ``Requirement`` (from
:mod:`agent_asserts.contract.parts`, re-exported here).

>>> a = ContractAssertion(
...     "every-mutation-audited",
...     bind=(Binding("mutations", "trace", where={"kind": "mutation", "status": "succeeded"}),
...           Binding("audits", "trace", where={"kind": "audit"})),
...     require=Requirement("has_matching", "mutations", "audits",
...                         on=("operation_ref", "actor_ref", "entity_ref"), within="2s"),
...     severity="critical",
... )
>>> a.require.within, a.gate_severity.value
(2.0, 'gate')
>>> Requirement("equals", "status", "refunded", quantifier="evry")
Traceback (most recent call last):
...
agent_asserts.contract.problems.ContractError: quantifier: must be one of 'every', 'some', ...
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

import attrs

from agent_asserts.contract.grammar import GATE_SEVERITIES
from agent_asserts.contract.parts import Binding, Requirement
from agent_asserts.contract.problems import Problems
from agent_asserts.contract.validate import Shape, check_assertion, check_unique_ids
from agent_asserts.status import Severity


def _bindings(value: Iterable[Binding] | Mapping[str, Binding]) -> tuple[Binding, ...]:
    if isinstance(value, Mapping):
        return tuple(value.values())
    return tuple(value)


def scope(*groups: Iterable[Binding]) -> dict[str, Binding]:
    """Binding names to bindings; later groups shadow earlier ones."""
    out: dict[str, Binding] = {}
    for group in groups:
        out.update((b.name, b) for b in group)
    return out


@attrs.frozen
class Condition:
    """``when: {bind, require}``: the assertion applies only when this requirement passes.

    Its ``require`` may also read the assertion's own bindings (its ``bind`` shadows them).
    """

    require: Requirement
    bind: tuple[Binding, ...] = attrs.field(default=(), converter=_bindings)

    def to_dict(self) -> dict[str, Any]:
        """The dict/YAML form."""
        out: dict[str, Any] = {}
        if self.bind:
            out["bind"] = {b.name: b.to_dict() for b in self.bind}
        out["require"] = self.require.to_dict()
        return out


def _shapes(bindings: Mapping[str, Binding]) -> dict[str, Shape | None]:
    return {name: b.shape for name, b in bindings.items()}


@attrs.frozen
class ContractAssertion:
    """One assertion: bindings, the requirement, an optional condition, a severity.

    ``severity`` is critical, high (default), medium or low: critical and high gate the case,
    medium and low only score it. ``allow_empty`` lets ``every``/``some`` pass over an empty
    selection.
    """

    id: str
    bind: tuple[Binding, ...] = attrs.field(converter=_bindings)
    require: Requirement
    when: Condition | None = None
    severity: str = "high"
    allow_empty: bool = False

    def __attrs_post_init__(self) -> None:
        p = Problems()
        self.check(p)
        p.raise_if_any()

    def check(self, p: Problems) -> None:
        """Add the cross-reference problems (unbound names, shapes) to ``p``."""
        check_assertion(p, ident=self.id, severity=self.severity, allow_empty=self.allow_empty)
        names = [b.name for b in self.bind]
        for name in {n for n in names if names.count(n) > 1}:
            p.add(("bind",), f"{name!r} is bound twice")
        own = scope(self.bind)
        self.require.check(p.at("require"), _shapes(own))
        if self.when is not None:
            inner = scope(self.bind, self.when.bind)
            self.when.require.check(p.at("when", "require"), _shapes(inner))

    @property
    def gate_severity(self) -> Severity:
        """``GATE`` for critical and high, ``SOFT`` for medium and low."""
        return Severity.GATE if self.severity in GATE_SEVERITIES else Severity.SOFT

    @property
    def bindings(self) -> dict[str, Binding]:
        """The bindings by name."""
        return scope(self.bind)

    def to_dict(self) -> dict[str, Any]:
        """The dict/YAML form of the assertion."""
        out: dict[str, Any] = {"id": self.id, "severity": self.severity}
        if self.when is not None:
            out["when"] = self.when.to_dict()
        out["bind"] = {b.name: b.to_dict() for b in self.bind}
        out["require"] = self.require.to_dict()
        if self.allow_empty:
            out["allow_empty"] = True
        return out


def _assertions(value: Iterable[ContractAssertion]) -> tuple[ContractAssertion, ...]:
    return tuple(value)


@attrs.frozen
class Contract:
    """A named list of assertions over one record (ids are unique).

    >>> Contract.from_dict({"bind": {"s": {"from": "final_state", "path": "/a"}},
    ...                     "require": {"op": "equals", "left": "s", "right": 1}}).to_dict()
    ... # doctest: +NORMALIZE_WHITESPACE
    {'contract': 'contract', 'assertions': [{'id': 'contract', 'severity': 'high',
      'bind': {'s': {'from': 'final_state', 'path': '/a'}},
      'require': {'op': 'equals', 'left': 's', 'right': 1}}]}
    """

    name: str = "contract"
    assertions: tuple[ContractAssertion, ...] = attrs.field(default=(), converter=_assertions)

    def __attrs_post_init__(self) -> None:
        p = Problems()
        if not isinstance(self.name, str) or not self.name:
            p.add(("contract",), f"must be a non-empty string (got {self.name!r})")
        check_unique_ids(p, [a.id for a in self.assertions])
        p.raise_if_any()

    @classmethod
    def from_dict(cls, data: Any, *, name: str | None = None) -> Contract:
        """Read the dict/YAML form (``contract:`` + ``assertions:``, or one bare assertion).

        Args:
            data: The parsed document.
            name: The contract name when the document gives none (default ``contract``).

        Raises:
            ContractError: Every problem of the document, each with its key path.

        >>> Contract.from_dict({"assertions": [{"id": "a", "bind": {},
        ...     "require": {"op": "equals", "left": "x", "right": 1}}]})
        Traceback (most recent call last):
        ...
        agent_asserts.contract.problems.ContractError: assertions[0].require.left: 'x' is not ...
        """
        from agent_asserts.contract.parse import parse_contract

        p = Problems()
        contract = parse_contract(p, data, default_name=name)
        p.raise_if_any()
        if contract is None:  # pragma: no cover - a None contract always comes with a problem
            raise p.error()
        return contract

    def to_dict(self) -> dict[str, Any]:
        """The dict/YAML form; ``Contract.from_dict(c.to_dict()) == c``."""
        return {"contract": self.name, "assertions": [a.to_dict() for a in self.assertions]}


__all__ = ["Binding", "Condition", "Contract", "ContractAssertion", "Requirement", "scope"]
