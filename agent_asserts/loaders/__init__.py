"""Suite files: checks written in YAML or JSON, in one of several dialects.

:func:`load` reads a file (or already parsed data), :func:`loads` reads text; both detect the
dialect by the document's shape (or take ``dialect=``) and return a :class:`Suite` of
:class:`Case` objects holding the same check objects the fluent API builds. Every problem of a
file is reported at once in one :class:`LoadError`, each with file, line, column and key path.
See docs/suite-files.md.

>>> from agent_asserts.testing import demo_record
>>> suite = loads('''
... name: refunds
... checks:
...   - called_tool: {name: refunds_lookup, arguments: {orderId: {$regex: "^A"}}}
...   - max_tool_calls: 5
...     severity: soft
... ''')
>>> [r.verdict.value for r in suite.evaluate(demo_record())]
['passed']
>>> try:
...     loads("checks:\\n  - called_tol: refunds_lookup\\n")
... except LoadError as err:
...     print(err)
<string>:2:5: checks[0]: unknown check 'called_tol' (did you mean 'called_tool'?)
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import attrs

from agent_asserts._values import depth_message, too_deep
from agent_asserts.loaders.collector import LoadError, LoadProblem, ProblemCollector
from agent_asserts.loaders.contract import load_contract
from agent_asserts.loaders.dialects import (
    BuildContext,
    Dialect,
    detect_dialect,
    get_dialect,
    register_dialect,
    take_record_format,
)
from agent_asserts.loaders.nodes import Node, format_path
from agent_asserts.loaders.source import (
    parse_data,
    parse_into,
    read_json_quick,
    read_source,
    read_yaml_quick,
)
from agent_asserts.loaders.suite import Case, CheckEntry, Suite

Source = str | os.PathLike[str] | Mapping[str, Any] | Sequence[Any]


def load(
    source: Source,
    *,
    dialect: str | None = None,
    judge: Any = None,
    tool_resolver: Any = None,
) -> Suite:
    """Load a suite from a YAML/JSON file, or from data already parsed (a mapping or list).

    Args:
        source: A path (``str`` or ``os.PathLike``), or parsed data (problems then show
            ``<data>`` and the key path, without line and column).
        dialect: Force a dialect (``"native"``, ``"mantle"``…) instead of detecting it.
        judge: The judge the cases' semantic checks use.
        tool_resolver: Passed to dialects that map tool references to names.

    Returns:
        The :class:`Suite`; a single-case file gives a suite of one case.

    Raises:
        LoadError: Every problem of the file, with positions.
        ValueError: An unknown ``dialect`` name.
        ImportError: A YAML file without PyYAML installed (JSON needs nothing).

    >>> suite = load({"checks": [{"max_steps": 5}]})
    >>> suite.name, suite.dialect, suite.cases[0].checks
    ('suite', 'native', (MaxSteps(n=5),))
    """
    chosen = get_dialect(dialect) if dialect is not None else None
    if isinstance(source, str | os.PathLike):
        text, shown = read_source(source)
        ctx = BuildContext.for_source(
            source, dialect="", file=shown, judge=judge, tool_resolver=tool_resolver
        )
        json_file = os.fspath(source).lower().endswith(".json")
        return _build_text(text, ctx, chosen, json_expected=json_file)
    if isinstance(source, Mapping | list | tuple):
        ctx = BuildContext.for_source(None, dialect="", judge=judge, tool_resolver=tool_resolver)
        deep = too_deep(source)
        if deep is not None:
            raise LoadError([LoadProblem("<data>", None, None, format_path(deep), depth_message())])
        return _build(parse_data(source), ctx, chosen)
    raise TypeError(f"'source' must be a path, a mapping or a list (got {source!r})")


def loads(
    text: str,
    *,
    dialect: str | None = None,
    judge: Any = None,
    tool_resolver: Any = None,
    name: str | None = None,
) -> Suite:
    """Load a suite from YAML or JSON text.

    Args:
        text: The document.
        dialect: Force a dialect instead of detecting it.
        judge: The judge the cases' semantic checks use.
        tool_resolver: Passed to dialects that map tool references to names.
        name: A file name for problems (default ``<string>``); its stem is the default
            suite name (default ``suite``). ``record:`` paths stay relative to the working
            directory.

    >>> loads('{"name": "n", "checks": [{"used_no_tools": null}]}').cases[0].name
    'n'
    """
    chosen = get_dialect(dialect) if dialect is not None else None
    ctx = BuildContext.for_source(
        None,
        dialect="",
        file=name or "<string>",
        default_name=Path(name).stem if name else None,
        judge=judge,
        tool_resolver=tool_resolver,
    )
    json_text = bool(name) and str(name).lower().endswith(".json")
    return _build_text(text, ctx, chosen, json_expected=json_text)


def _build_text(
    text: str, ctx: BuildContext, chosen: Dialect | None, *, json_expected: bool
) -> Suite:
    """The suite of ``text``, read quickly first, without positions
    (:func:`~agent_asserts.loaders.source.read_json_quick`, or
    :func:`~agent_asserts.loaders.source.read_yaml_quick` unless JSON is expected); a document
    with a problem is read again with positions (:func:`parse_into`), so every problem is
    reported where it was written, as if it had been read that way only."""
    file = ctx.problems.file
    quick = read_json_quick(text, file) if text.lstrip()[:1] in ("{", "[") else None
    if quick is None and not json_expected:
        quick = read_yaml_quick(text, file)
    if quick is not None:
        attempt = attrs.evolve(ctx, problems=ProblemCollector(ctx.problems.file))
        try:
            return _build(quick, attempt, chosen)
        except LoadError:
            pass  # read again, with positions
    doc = parse_into(text, ctx.problems, json_expected=json_expected)
    return _build(doc, ctx, chosen)


def _build(doc: Node | None, ctx: BuildContext, chosen: Dialect | None) -> Suite:
    if doc is None:
        raise ctx.problems.error()
    doc, record_format = take_record_format(doc, ctx.problems)
    if chosen is None:
        chosen = detect_dialect(doc, ctx.problems)
        if chosen is None:
            raise ctx.problems.error()
    ctx = attrs.evolve(ctx, dialect=chosen.name)
    suite = chosen.build(doc, ctx)
    ctx.problems.raise_if_any()
    if record_format not in (None, "auto"):
        cases = tuple(
            c if c.record_format != "auto" else attrs.evolve(c, record_format=record_format)
            for c in suite.cases
        )
        suite = attrs.evolve(suite, cases=cases)
    return suite


__all__ = [
    "Case",
    "CheckEntry",
    "LoadError",
    "LoadProblem",
    "ProblemCollector",
    "Suite",
    "load",
    "load_contract",
    "loads",
    "register_dialect",
]
