"""The contract dialect: bind → require assertions (seed 002) in YAML or JSON.

Shapes: ``contract: <name>`` with ``assertions: [{id, severity, when, bind, require,
allow_empty}]``, or one bare ``{bind, require}`` assertion (its id is the contract's name,
by default the file's stem). ``record:`` names a record file as in every dialect. The contract
is read by :mod:`agent_asserts.contract.model`; this module only places each problem at its
line and column. ``on:`` stays a string key because the loaders read YAML 1.2 scalars.

>>> from agent_asserts.loaders import loads
>>> from agent_asserts.testing import demo_record
>>> suite = loads('''
... contract: refunds
... assertions:
...   - id: order-refunded
...     bind:
...       status: {from: final_state, path: /orders/A1049/status}
...     require: {op: equals, left: status, right: refunded}
... ''')
>>> [(r.name, r.status.value) for r in suite.evaluate(demo_record())[0].results]
[('order-refunded', 'pass')]
>>> loads("bind: {}\\nrequire: {op: equals, left: x, right: 1}\\n", name="c.yml")
Traceback (most recent call last):
...
agent_asserts.errors.LoadError: c.yml:2:29: require.left: 'x' is not bound (bound: none)
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from agent_asserts._values import format_path
from agent_asserts.checks.contract import ContractCheck
from agent_asserts.contract.model import parse_contract
from agent_asserts.contract.problems import ContractProblem, Problems
from agent_asserts.loaders.collector import ProblemCollector
from agent_asserts.loaders.dialects import BuildContext, builtin_dialect
from agent_asserts.loaders.nodes import INVALID, MappingNode, Node, ScalarNode, descend, to_plain
from agent_asserts.loaders.source import parse_file
from agent_asserts.loaders.suite import Case, CheckEntry, Suite

if TYPE_CHECKING:
    from agent_asserts.contract.model import Contract

SHAPE = "`contract:` with `assertions:` entries of `bind`/`require`, or one bare `{bind, require}`"


def detect(data: Any) -> bool:
    """``assertions:`` whose entries have ``bind``/``require``, or one bare ``{bind, require}``.

    >>> detect({"bind": {}, "require": {}}), detect({"assertions": [{"bind": {}}]})
    (True, True)
    >>> detect({"assertions": [{"skill_activated": {}}]})
    False
    """
    if not isinstance(data, Mapping):
        return False
    if "bind" in data and "require" in data:
        return True
    items = data.get("assertions")
    if isinstance(items, list) and items:
        return all(isinstance(i, Mapping) and ({"bind", "require"} & set(i)) for i in items)
    return "contract" in data and "checks" not in data and "cases" not in data


def place(root: Node, found: Iterable[ContractProblem], problems: ProblemCollector) -> None:
    """Add each contract problem to ``problems`` at its position under ``root``.

    >>> from agent_asserts.contract.problems import ContractProblem
    >>> from agent_asserts.loaders.source import parse_text
    >>> problems = ProblemCollector("c.yml")
    >>> doc = parse_text("{require: {op: exist}}")
    >>> place(doc, [ContractProblem(("require", "op"), "unknown op 'exist'")], problems)
    >>> print(problems.error())
    <string>:1:16: require.op: unknown op 'exist'
    """
    for problem in found:
        node = descend(root, problem.parts)
        if isinstance(node, ScalarNode) and node.value is INVALID:
            continue  # its problem (a bad tag, say) is already reported
        reached = node.path == (*root.path, *problem.parts)
        if problem.key is not None and reached and isinstance(node, MappingNode):
            problems.add_key_problem(node, problem.key, problem.message)
        elif reached:
            problems.add(node, problem.message)
        else:
            where = format_path((*root.path, *problem.parts))
            problems.add_at(node.line, node.col, where, problem.message)


def contract_from_node(
    doc: Node, problems: ProblemCollector, *, default_name: str | None = None
) -> Contract | None:
    """The contract written at ``doc`` (``record:`` is left to the caller), or None.

    >>> from agent_asserts.loaders.source import parse_text
    >>> doc = parse_text("{id: refunded, bind: {s: {from: final_state, path: /orders/A1/status}},"
    ...                  " require: {op: equals, left: s, right: refunded}}")
    >>> [a.id for a in contract_from_node(doc, ProblemCollector("c.yml")).assertions]
    ['refunded']
    """
    data = to_plain(doc)
    if isinstance(data, Mapping):
        data = {k: v for k, v in data.items() if k != "record"}
    found = Problems()
    contract = parse_contract(found, data, default_name=default_name)
    place(doc, found.problems, problems)
    return contract


def build(doc: Node, ctx: BuildContext) -> Suite:
    """The suite of a contract document: one case, one entry per assertion.

    >>> from agent_asserts.loaders.source import parse_text
    >>> doc = parse_text("{id: refunded, bind: {s: {from: final_state, path: /orders/A1/status}},"
    ...                  " require: {op: equals, left: s, right: refunded}}")
    >>> suite = build(doc, BuildContext.for_source(None, dialect="contract"))
    >>> [type(c).__name__ for c in suite.cases[0].checks]
    ['ContractCheck']
    """
    record = None
    if isinstance(doc, MappingNode) and "record" in doc.items:
        record = ctx.record_path(doc.items["record"])
    contract = contract_from_node(doc, ctx.problems, default_name=ctx.default_name)
    if contract is None:
        return ctx.suite(())
    # name and severity come from the check itself (its id and severity_for), so the native
    # form of an entry is just ``- contract: {...}``
    entries = [CheckEntry(ContractCheck(a)) for a in contract.assertions]
    case = Case(contract.name, tuple(entries), record, judge=ctx.judge)
    return ctx.suite([case], name=contract.name)


def load_contract(path: str | os.PathLike[str]) -> Contract:
    """Read a contract file (YAML, or JSON) into a :class:`~agent_asserts.contract.Contract`.

    Raises:
        LoadError: Every problem of the file, with file, line, column and key path.

    >>> import pathlib, tempfile
    >>> file = pathlib.Path(tempfile.mkdtemp(), "audit.yml")
    >>> _ = file.write_text("bind: {n: {from: trace, extract: count}}\\n"
    ...                     "require: {op: equals, left: n, right: 0}\\n")
    >>> load_contract(file).assertions[0].id
    'audit'
    """
    doc = parse_file(path)
    problems = ProblemCollector(os.fspath(path))
    contract = contract_from_node(doc, problems, default_name=Path(path).stem)
    problems.raise_if_any()
    if contract is None:  # pragma: no cover - None always comes with a problem
        raise problems.error()
    return contract


builtin_dialect("contract", detect=detect, build=build, shape=SHAPE, order=40)

__all__ = [
    "SHAPE",
    "build",
    "contract_from_node",
    "detect",
    "load_contract",
    "place",
]
