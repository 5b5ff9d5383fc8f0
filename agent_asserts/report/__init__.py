"""Reports over case results: text, JSON, JUnit XML, Markdown and self-contained HTML.

Every renderer takes the cases (one ``CaseResult``, a list, or a ``BatchResult``) and, as
keywords, one record and one source label per case (the :class:`Renderer` protocol;
:func:`renders_rows` turns a format's function of report rows into one). :func:`render` picks
a renderer by format name, :func:`write_report` by the file's extension;
:func:`register_renderer` adds a format, which the CLI's ``--format`` and
``BatchResult.render`` then offer too. The formats, built-in and registered, are entries of one
:class:`~agent_asserts._registry.Registry`. See docs/reports.md.

The rows themselves (``ReportRow``, ``rows_of``) and their tallies are not rendering: they live
with the results (:mod:`agent_asserts.results`), below the batches that use them.

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
import functools
import importlib
import os
import re
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from agent_asserts._files import write_atomic
from agent_asserts._registry import Registry
from agent_asserts.results import (
    Cases,
    ReportRow,
    pass_rate,
    rows_of,
    tally_line,
    verdict_counts,
)

if TYPE_CHECKING:
    from agent_asserts.record import TrialRecord

# -- what a format is ---------------------------------------------------------------------------


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
        return escape_surrogates(
            render_rows(rows_of(cases, records=records, sources=sources), title)
        )

    del render.__wrapped__  # help() and inspect show the renderer's call, not the rows one
    return render


_SURROGATE = re.compile("[\ud800-\udfff]")


def escape_surrogates(text: str) -> str:
    """``text`` with each lone surrogate (``"\\ud800"``, which a JSON escape may hold but no
    UTF-8 file can) written as its ``\\uXXXX`` escape: in a JSON report that is the same
    string read back, in the other formats visible text. Every :func:`renders_rows` format
    goes through it, so a report is written whatever the text holds.

    >>> print(escape_surrogates("a\\ud800b"))
    a\\ud800b
    >>> escape_surrogates("no surrogate: é 🙂")
    'no surrogate: é 🙂'
    """
    if text.isascii():
        return text
    try:  # UTF-8 refuses exactly the lone surrogates, at C speed (the pattern is ~3x slower)
        text.encode("utf-8")
    except UnicodeEncodeError:
        pass
    else:
        return text
    return _SURROGATE.sub(lambda m: f"\\u{ord(m.group()):04x}", text)


# -- the formats ----------------------------------------------------------------------------

FORMATS: dict[str, tuple[str, str]] = {
    "text": ("agent_asserts.report.text", "render_text"),
    "json": ("agent_asserts.report.json_report", "render_json"),
    "junit": ("agent_asserts.report.junit", "render_junit"),
    "markdown": ("agent_asserts.report.text", "render_markdown"),
    "html": ("agent_asserts.report.html_report", "render_html"),
}
"""The built-in formats: name → (module, renderer function), imported on first use."""


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


_RENDERERS: Registry[Renderer | tuple[str, str]] = Registry("report format")
"""Every format, built-in (its ``FORMATS`` entry) then registered (its renderer)."""
for _name, _where in FORMATS.items():
    _RENDERERS.add_builtin(_name, _where)


def register_renderer(name: str, fn: Renderer, *, extensions: Sequence[str] = ()) -> None:
    """Add the report format ``name``, rendered by ``fn``; files ending in ``extensions``
    (``".csv"``) are written in it by :func:`write_report` and the CLI's ``--output``.

    Raises:
        ValueError: ``name`` or one of ``extensions`` is already taken.

    >>> def render_names(cases, *, records=None, sources=None, title=None):
    ...     return "".join(f"{row.case.name};" for row in rows_of(cases))
    >>> register_renderer("names", render_names, extensions=[".names"])
    >>> from agent_asserts.results import CaseResult
    >>> render([CaseResult("a", "passed")], "names"), format_for_path("out.names")
    ('a;', 'names')
    >>> unregister_renderer("names")
    """
    if name in _RENDERERS:
        raise ValueError(f"report format {name!r} is already registered")
    taken = [ext for ext in extensions if ext.lower() in EXTENSIONS]
    if taken:
        raise ValueError(
            f"extension {taken[0]!r} is already used by {EXTENSIONS[taken[0].lower()]!r}"
        )
    _RENDERERS.add(name, fn)
    for ext in extensions:
        EXTENSIONS[ext.lower()] = name


def unregister_renderer(name: str) -> None:
    """Remove a format added by :func:`register_renderer` (built-in formats stay).

    Raises:
        KeyError: ``name`` was not registered.
    """
    if name in FORMATS:
        raise KeyError(name)
    _RENDERERS.remove(name)
    for ext in [ext for ext, fmt in EXTENSIONS.items() if fmt == name]:
        del EXTENSIONS[ext]


def formats() -> tuple[str, ...]:
    """Every format name: the built-in ones, then the registered ones in registration order.

    >>> formats()[:5]
    ('text', 'json', 'junit', 'markdown', 'html')
    """
    return _RENDERERS.names()


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
    entry = _RENDERERS.get(fmt)
    if entry is None:
        raise ValueError(f"unknown report format {fmt!r} (expected one of {', '.join(formats())})")
    if not isinstance(entry, tuple):
        return entry
    module, name = entry
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
    text = renderer(fmt)(cases, records=records, sources=sources, title=title, **options)
    # the built-in formats escape their own text (a second pass reads a 14 MB report again)
    return text if fmt in FORMATS else escape_surrogates(text)


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
    "Renderer",
    "ReportRow",
    "escape_surrogates",
    "format_for_path",
    "formats",
    "pass_rate",
    "register_renderer",
    "render",
    "renderer",
    "rows_of",
    "tally_line",
    "unregister_renderer",
    "verdict_counts",
    "write_report",
]
