"""Reports over case results: text, JSON, JUnit XML, Markdown and self-contained HTML.

Every renderer takes the cases (one ``CaseResult``, a list, or a ``BatchResult``) and, as
keywords, one record and one source label per case. :func:`render` picks a renderer by format
name, :func:`write_report` by the file's extension. See docs/reports.md.

>>> from agent_asserts.results import CaseResult
>>> print(render([CaseResult("a", "passed")], "text"))
PASSED a: 0 checks
  warning: no assertions were recorded
<BLANKLINE>
1 case: 1 passed; pass rate 100.0%
>>> format_for_path("out/report.xml")
'junit'
"""

from __future__ import annotations

import errno
import importlib
import os
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from agent_asserts._atomic import write_atomic
from agent_asserts.report._model import (
    Cases,
    ReportRow,
    pass_rate,
    rows_of,
    tally_line,
    verdict_counts,
)

if TYPE_CHECKING:
    from agent_asserts.record import TrialRecord

FORMATS: dict[str, tuple[str, str]] = {
    "text": ("agent_asserts.report.text", "render_text"),
    "json": ("agent_asserts.report.json_report", "render_json"),
    "junit": ("agent_asserts.report.junit", "render_junit"),
    "markdown": ("agent_asserts.report.markdown", "render_markdown"),
    "html": ("agent_asserts.report.html_report", "render_html"),
}
"""Format name → (module, renderer function)."""

EXTENSIONS: dict[str, str] = {
    ".txt": "text",
    ".text": "text",
    ".json": "json",
    ".xml": "junit",
    ".md": "markdown",
    ".markdown": "markdown",
    ".html": "html",
    ".htm": "html",
}
"""File extension → format name."""


def format_for_path(path: str | os.PathLike[str]) -> str:
    """The format a report file's extension asks for.

    Raises:
        ValueError: An extension no format uses (the message lists the known ones).

    >>> format_for_path("r.HTML"), format_for_path("summary.md")
    ('html', 'markdown')
    """
    suffix = Path(path).suffix.lower()
    try:
        return EXTENSIONS[suffix]
    except KeyError:
        known = ", ".join(sorted(EXTENSIONS))
        raise ValueError(
            f"cannot tell the report format of {os.fspath(path)!r} (use one of {known})"
        ) from None


def renderer(fmt: str) -> Callable[..., str]:
    """The render function of a format name (``text``, ``json``, ``junit``, ``markdown``,
    ``html``).

    >>> renderer("junit").__name__
    'render_junit'
    """
    try:
        module, name = FORMATS[fmt]
    except KeyError:
        raise ValueError(
            f"unknown report format {fmt!r} (expected one of {', '.join(FORMATS)})"
        ) from None
    fn: Callable[..., str] = getattr(importlib.import_module(module), name)
    return fn


def render(
    cases: Cases,
    fmt: str = "text",
    *,
    records: Sequence[TrialRecord | None] | None = None,
    sources: Sequence[str | None] | None = None,
    title: str | None = None,
    **options: Any,
) -> str:
    """Render ``cases`` in format ``fmt`` (extra ``options`` go to the renderer, e.g. ``color``)."""
    return renderer(fmt)(cases, records=records, sources=sources, title=title, **options)


def write_report(
    path: str | os.PathLike[str],
    cases: Cases,
    *,
    fmt: str | None = None,
    records: Sequence[TrialRecord | None] | None = None,
    sources: Sequence[str | None] | None = None,
    title: str | None = None,
) -> Path:
    """Write a report to ``path`` and return the path; parent directories are created.

    The format comes from the extension unless ``fmt`` is given.

    Raises:
        ValueError: No ``fmt`` and an extension no format uses.
        OSError: The file cannot be written (``NotADirectoryError`` naming the plain file
            when one stands where a parent directory is needed).

    >>> import tempfile, pathlib
    >>> from agent_asserts.results import CaseResult
    >>> with tempfile.TemporaryDirectory() as d:
    ...     out = write_report(pathlib.Path(d, "r.md"), [CaseResult("a", "passed")])
    ...     out.read_text(encoding="utf-8").splitlines()[0]
    '## agent_asserts: 1 case: 1 passed; pass rate 100.0%'
    """
    chosen = fmt or format_for_path(path)
    text = render(cases, chosen, records=records, sources=sources, title=title)
    target = Path(path)
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
    except FileExistsError:  # a plain file stands where a directory is needed
        blocker = next(p for p in target.parents if p.exists() and not p.is_dir())
        raise NotADirectoryError(errno.ENOTDIR, os.strerror(errno.ENOTDIR), str(blocker)) from None
    return write_atomic(target, text)


__all__ = [
    "EXTENSIONS",
    "FORMATS",
    "Cases",
    "ReportRow",
    "format_for_path",
    "pass_rate",
    "render",
    "renderer",
    "rows_of",
    "tally_line",
    "verdict_counts",
    "write_report",
]
