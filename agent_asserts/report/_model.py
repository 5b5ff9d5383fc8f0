"""The glue every report format shares: the :class:`Renderer` protocol, and
:func:`renders_rows`, which turns a format's function of report rows into a renderer.

The rows themselves (``ReportRow``, ``rows_of``) and their tallies are not rendering: they live
in :mod:`agent_asserts.summary`, below the results and batches that use them.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Protocol

from agent_asserts.result_rows import Cases, ReportRow, rows_of

if TYPE_CHECKING:
    from agent_asserts.record import TrialRecord


class Renderer(Protocol):
    """What a report format is: a callable rendering cases to text.

    ``cases`` is one ``CaseResult``, a list of them or a ``BatchResult``; ``records`` and
    ``sources`` give one record and one source label per case (or are None).
    :func:`~agent_asserts.report.rows_of` turns the three into ``ReportRow`` objects.
    """

    def __call__(
        self,
        cases: Cases,
        *,
        records: Sequence[TrialRecord | None] | None = None,
        sources: Sequence[str | None] | None = None,
        title: str | None = None,
    ) -> str:
        """The report as text."""
        ...


RowsRender = Callable[[tuple["ReportRow", ...], "str | None"], str]
"""A format's rendering of report rows under a title."""


def renders_rows(render_rows: RowsRender) -> Renderer:
    """A :class:`Renderer` (cases, and one record and source per case, as keywords) made of a
    function of the report rows and the title: the one place a format's arguments become rows.

    >>> from agent_asserts.results import CaseResult
    >>> @renders_rows
    ... def render_names(rows, title):
    ...     '''The case names, one a line.'''
    ...     return "\\n".join(row.case.name for row in rows)
    >>> render_names([CaseResult("a", "passed")], sources=["a.json"]), render_names.__doc__
    ('a', 'The case names, one a line.')
    """

    @functools.wraps(render_rows)
    def render(
        cases: Cases,
        *,
        records: Sequence[TrialRecord | None] | None = None,
        sources: Sequence[str | None] | None = None,
        title: str | None = None,
    ) -> str:
        return render_rows(rows_of(cases, records=records, sources=sources), title)

    del render.__wrapped__  # help() and inspect show the renderer's call, not the rows one
    return render


__all__ = ["Renderer", "RowsRender", "renders_rows"]
