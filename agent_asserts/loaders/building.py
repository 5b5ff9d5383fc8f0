"""What a dialect builder receives: the problems, where the file lives, and the load options.

Every dialect accepts ``name:`` and ``record:`` at its top level; :meth:`BuildContext.top_level`
reads both the same way for all of them (the record path is relative to the suite file).

>>> from agent_asserts.loaders.nodes import from_plain
>>> ctx = BuildContext.for_source(None, dialect="native", default_name="refunds")
>>> ctx.top_level(from_plain({"record": "runs/ok.json"}))
('refunds', PosixPath('runs/ok.json'))
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import attrs

from agent_asserts.loaders.collector import ProblemCollector
from agent_asserts.loaders.nodes import MappingNode, Node
from agent_asserts.loaders.suite import Suite

if TYPE_CHECKING:
    from agent_asserts.loaders.suite import Case

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
        """The :class:`Suite` of this load (problems are raised by the caller).

        >>> BuildContext.for_source("suites/refund.yml", dialect="native").suite([])
        Suite(name='refund', cases=(), source='suites/refund.yml', dialect='native')
        """
        return Suite(
            name=name or self.default_name,
            cases=tuple(cases),
            source=self.source,
            dialect=self.dialect,
        )


__all__ = ["TOP_LEVEL_KEYS", "BuildContext"]
