"""The dialect registry, detection by shape, and what a dialect builder receives.

A dialect is a module ``agent_asserts.loaders.<name>`` that calls :func:`register_dialect` (the
built-in ones :func:`builtin_dialect`) when imported, giving a ``detect(data) -> bool`` over the
plain document, a ``build(doc, ctx) -> Suite`` over its nodes and a one-line description of its
``shape`` (used in error messages). The entries are filed in the one registry helper
(:data:`DIALECTS`, a :class:`~agent_asserts._registry.Registry`), whose load, before the first
read, imports every module of the ``agent_asserts.loaders`` package once, so the dialect modules
register themselves: adding a dialect is adding its module (nothing else is edited). Each
dialect declares its place in the detection order (``order``; the built-ins are mantle 10, cxas
20, sop 30, contract 40, native 50; a dialect registered from outside defaults to 100 and comes
after them, see docs/suite-files.md).

Every detector is asked; exactly one must say yes. None or several is a problem that lists
the dialects and what each looks like, and asks for ``dialect=``.

>>> import agent_asserts.loaders.dialects as d
>>> d.register_dialect("demo", detect=lambda data: "demo" in data, build=None, shape="`demo:`")
>>> d.get_dialect("demo").shape
'`demo:`'
>>> _ = d.DIALECTS.remove("demo")

A dialect builder receives a :class:`BuildContext`: the problems, where the file lives, and the
load options. Every dialect accepts ``name:`` and ``record:`` at its top level;
:meth:`BuildContext.top_level` reads both the same way for all of them (the record path is
relative to the suite file).

>>> from agent_asserts.loaders.nodes import from_plain
>>> ctx = BuildContext.for_source(None, dialect="native", default_name="refunds")
>>> ctx.top_level(from_plain({"record": "runs/ok.json"}))
('refunds', PosixPath('runs/ok.json'))

``record_format:`` beside ``record:`` in every dialect names the trace format of the record file
(a name of :func:`agent_asserts.record.adapters.formats`; default ``auto``, detected). The
loader takes it off the top level before a dialect sees the document, and gives it to every
case that does not name its own (a native ``cases:`` entry may).

>>> from agent_asserts.loaders.source import parse_text
>>> problems = ProblemCollector("s.yml")
>>> doc, name = take_record_format(parse_text("{record: run.json, record_format: ces}"), problems)
>>> sorted(doc.items), name
(['record'], 'ces')
"""

from __future__ import annotations

import importlib
import os
import pkgutil
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final

import attrs

from agent_asserts._registry import Registry
from agent_asserts._text import did_you_mean
from agent_asserts.loaders.collector import ProblemCollector
from agent_asserts.loaders.nodes import MappingNode, Node, to_plain
from agent_asserts.loaders.suite import Suite
from agent_asserts.record import RecordError
from agent_asserts.record.adapters import get_format

if TYPE_CHECKING:
    from agent_asserts.loaders.collector import ProblemCollector
    from agent_asserts.loaders.suite import Case, Suite


TOP_LEVEL_KEYS = ("name", "record")
"""Keys every dialect accepts at its top level."""


@attrs.frozen
class BuildContext:
    """The state of one load, handed to a dialect's ``build(doc, ctx)``.

    Attributes:
        problems: Where the builder adds every problem it finds.
        source: The suite file as given (None for text or data).
        base_dir: Directory that ``record:`` paths are relative to (None: as written).
        dialect: The dialect being built.
        default_name: The suite's name when it has no ``name:`` (the file's stem).
        judge: The ``judge=`` given to ``load``, passed on to every case.
        tool_resolver: The ``tool_resolver=`` given to ``load`` (dialect-specific use).
    """

    problems: ProblemCollector
    source: str | None
    base_dir: Path | None
    dialect: str
    default_name: str
    judge: Any = None
    tool_resolver: Any = None

    @classmethod
    def for_source(
        cls,
        source: str | os.PathLike[str] | None,
        *,
        dialect: str,
        file: str | None = None,
        default_name: str | None = None,
        judge: Any = None,
        tool_resolver: Any = None,
    ) -> BuildContext:
        """A context for a suite read from ``source`` (a path) or from text/data (None).

        >>> ctx = BuildContext.for_source("suites/refund.yml", dialect="native")
        >>> ctx.default_name, ctx.base_dir, BuildContext.for_source(None, dialect="").base_dir
        ('refund', PosixPath('suites'), None)
        """
        if source is not None:
            path = Path(source)
            shown = file or os.fspath(source)
            return cls(
                ProblemCollector(shown),
                os.fspath(source),
                path.parent,
                dialect,
                default_name or path.stem,
                judge,
                tool_resolver,
            )
        return cls(
            ProblemCollector(file or "<data>"),
            None,
            None,
            dialect,
            default_name or "suite",
            judge,
            tool_resolver,
        )

    def record_path(self, node: Node | None) -> Path | None:
        """The ``record:`` file named by ``node``, resolved against the suite's directory.

        >>> from agent_asserts.loaders.source import parse_text
        >>> ctx = BuildContext.for_source("suites/refund.yml", dialect="native")
        >>> ctx.record_path(parse_text("runs/ok.json")).as_posix()
        'suites/runs/ok.json'
        """
        text = self.problems.expect_str(node, non_empty=True)
        if text is None:
            return None
        path = Path(text)
        if self.base_dir is not None and not path.is_absolute():
            path = self.base_dir / path
        return path

    def top_level(self, doc: MappingNode) -> tuple[str, Path | None]:
        """The ``name:`` (default: the file's stem) and ``record:`` of a document.

        >>> from agent_asserts.loaders.source import parse_text
        >>> ctx = BuildContext.for_source("suites/refund.yml", dialect="native")
        >>> ctx.top_level(parse_text("{checks: [succeeded]}"))
        ('refund', None)
        """
        name = self.problems.expect_str(doc.get("name"), non_empty=True)
        return (name or self.default_name, self.record_path(doc.get("record")))

    def suite(self, cases: Sequence[Case], *, name: str | None = None) -> Suite:
        """The :class:`Suite` of this load (problems are raised by the caller); a case whose
        name an earlier case has is a problem of the document, and left out.

        >>> BuildContext.for_source("suites/refund.yml", dialect="native").suite([])
        Suite(name='refund', cases=(), source='suites/refund.yml', dialect='native')
        """
        names: set[str] = set()
        unique = []
        for case in cases:  # a dialect that did not refuse duplicates itself: refused here
            if case.name in names:
                self.problems.add(None, f"duplicate case name {case.name!r}")
                continue
            names.add(case.name)
            unique.append(case)
        return Suite(
            name=name or self.default_name,
            cases=tuple(unique),
            source=self.source,
            dialect=self.dialect,
        )


Detect = Callable[[Any], bool]
Build = Callable[[Node, "BuildContext"], "Suite"]


@attrs.frozen
class Dialect:
    """A registered dialect: its name, detector, builder and shape description."""

    name: str
    detect: Detect
    build: Build
    shape: str
    order: int = 100


def _import_dialect_modules() -> None:
    """Import every module of the ``agent_asserts.loaders`` package: each dialect module
    registers itself (the table's ``load``, run once, before its first read)."""
    package = importlib.import_module("agent_asserts.loaders")
    for info in pkgutil.iter_modules(package.__path__):
        importlib.import_module(f"agent_asserts.loaders.{info.name}")


DIALECTS: Registry[Dialect] = Registry("dialect", load=_import_dialect_modules)
"""Every registered dialect by name (the built-ins: every module of this package)."""


def register_dialect(
    name: str, *, detect: Detect, build: Build, shape: str, order: int = 100
) -> None:
    """Register (or replace) the dialect ``name``; called by each dialect module on import.

    ``order`` places it in the detection order (lower first; the built-ins use 10 to 50).

    >>> register_dialect("toy", detect=lambda data: "toy" in data, build=None, shape="`toy:`")
    >>> get_dialect("toy").shape
    '`toy:`'
    >>> _ = DIALECTS.remove("toy")
    """
    DIALECTS.add(name, Dialect(name, detect, build, shape, order))


def builtin_dialect(name: str, *, detect: Detect, build: Build, shape: str, order: int) -> None:
    """File a dialect of this package: as :func:`register_dialect`, without reading the table
    first (importing ``agent_asserts.loaders`` files the contract dialect and must not import
    every other dialect module; the first read of :data:`DIALECTS` does).

    >>> builtin_dialect("toy", detect=lambda data: False, build=None, shape="`toy:`", order=99)
    >>> DIALECTS.remove("toy").order
    99
    """
    DIALECTS.add_builtin(name, Dialect(name, detect, build, shape, order))


def dialects() -> list[Dialect]:
    """Every registered dialect, in detection order (then by name).

    >>> "native" in [d.name for d in dialects()]
    True
    """
    return sorted(DIALECTS.values(), key=lambda d: (d.order, d.name))


def get_dialect(name: str) -> Dialect:
    """The dialect called ``name``; a ``ValueError`` (with a suggestion) for an unknown one.

    >>> get_dialect("natve")
    Traceback (most recent call last):
    ...
    ValueError: unknown dialect 'natve' (did you mean 'native'?); known: ...native
    """
    known = dialects()
    for dialect in known:
        if dialect.name == name:
            return dialect
    names = [d.name for d in known]
    hint = did_you_mean(name, names)
    raise ValueError(f"unknown dialect {name!r}{hint}; known: {', '.join(names)}")


def detect_dialect(doc: Node, problems: ProblemCollector) -> Dialect | None:
    """The one dialect whose detector accepts ``doc``; otherwise a problem and None.

    >>> from agent_asserts.loaders.collector import ProblemCollector
    >>> from agent_asserts.loaders.source import parse_text
    >>> detect_dialect(parse_text("{checks: [succeeded]}"), ProblemCollector("s.yml")).name
    'native'
    """
    known = dialects()
    data = to_plain(doc)
    found = [d for d in known if _safe_detect(d, data)]
    if len(found) == 1:
        return found[0]
    if found:
        names = ", ".join(d.name for d in found)
        head = f"the document fits several dialects ({names}); pass dialect= to choose one:"
        listed = found
    else:
        head = "cannot tell which dialect this document is written in; use one of these "
        head += "shapes or pass dialect=:"
        listed = known
    lines = [head] + [f"  {d.name}: {d.shape}" for d in listed]
    problems.add(doc, "\n".join(lines))
    return None


def _safe_detect(dialect: Dialect, data: Any) -> bool:
    try:
        return bool(dialect.detect(data))
    except Exception:  # a detector that trips over an odd shape just does not match
        return False


KEY: Final = "record_format"


def read_record_format(node: Node | None, problems: ProblemCollector) -> str | None:
    """The format named by ``node`` (a registered name or ``auto``); a problem otherwise.

    >>> from agent_asserts.loaders.source import parse_text
    >>> problems = ProblemCollector("s.yml")
    >>> read_record_format(parse_text("mantel"), problems)
    >>> print(problems.error())  # doctest: +ELLIPSIS
    <string>:1:1: unknown trace format 'mantel' (did you mean 'mantle'?); known formats: ...
    """
    name = problems.expect_str(node, non_empty=True)
    if name is None or name == "auto":
        return name
    try:
        get_format(name)
    except RecordError as exc:
        problems.add(node, exc.problems[0].message)
        return None
    return name


def take_record_format(doc: Node, problems: ProblemCollector) -> tuple[Node, str | None]:
    """The document without its top-level ``record_format:``, and the format it named."""
    if not isinstance(doc, MappingNode) or KEY not in doc.items:
        return doc, None
    name = read_record_format(doc.items[KEY], problems)
    items = {k: v for k, v in doc.items.items() if k != KEY}
    keys = {k: v for k, v in doc.keys.items() if k != KEY}
    return attrs.evolve(doc, items=items, keys=keys), name


__all__ = [
    "DIALECTS",
    "KEY",
    "TOP_LEVEL_KEYS",
    "BuildContext",
    "Dialect",
    "builtin_dialect",
    "detect_dialect",
    "dialects",
    "get_dialect",
    "read_record_format",
    "register_dialect",
    "take_record_format",
]
