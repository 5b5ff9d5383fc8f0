"""The seam between the results and the report renderers above them.

``CaseResult._repr_html_`` and ``BatchResult``'s ``render``, ``write``, ``to_dict``, ``str()``
and ``_repr_html_`` are conveniences over :mod:`agent_asserts.report`, an edge of the layer
order that the results (layer 6) and the batches (layer 8) may not import. They ask
:func:`report_layer` here for the renderers instead. The package's façade
(``agent_asserts/__init__.py``, the composition root above every layer, which Python runs
before any submodule) installs the provider once, with :func:`install`; the provider imports
the report package on first use, so ``import agent_asserts`` stays fast and a process that
never renders never imports a renderer.

>>> ReportLayer._fields
('render', 'write', 'html_fragment', 'report_dict')
>>> report_layer().write.__name__
'write_report'
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Final, NamedTuple

if TYPE_CHECKING:
    from collections.abc import Callable, Sequence
    from pathlib import Path


JSON_SCHEMA_VERSION: Final = 1
"""The ``schema_version`` of the JSON report, which its writer
(:mod:`agent_asserts.report.json_report`) and its reader
(:func:`agent_asserts.serialization.read_json_report`) share."""


class ReportLayer(NamedTuple):
    """The four entry points of the report renderers that results and batches use (a named
    tuple: the façade imports this module, and ``import agent_asserts`` stays light).

    Attributes:
        render: ``render(cases, fmt, **options) -> str`` (:func:`agent_asserts.report.render`).
        write: ``write(path, cases, *, fmt=None) -> Path``
            (:func:`agent_asserts.report.write_report`).
        html_fragment: ``html_fragment(cases) -> str``, the HTML report's view without the
            page around it (``_repr_html_`` in notebooks).
        report_dict: ``report_dict(rows) -> dict``, the JSON report's data.
    """

    render: Callable[..., str]
    write: Callable[..., Path]
    html_fragment: Callable[..., str]
    report_dict: Callable[[Sequence[Any]], dict[str, Any]]


_provider: Callable[[], ReportLayer] | None = None
_layer: ReportLayer | None = None


def install(provider: Callable[[], ReportLayer]) -> None:
    """Set the function that builds the :class:`ReportLayer` (called once, on first use).

    The façade calls it on import; a later call replaces the provider (and forgets the layer
    built by the previous one).
    """
    global _provider, _layer
    _provider, _layer = provider, None


def report_layer() -> ReportLayer:
    """The report renderers, built by the installed provider on first use.

    Raises:
        RuntimeError: No provider is installed (the package façade was bypassed).
    """
    global _layer
    if _layer is None:
        if _provider is None:
            raise RuntimeError(
                "no report layer is installed: import agent_asserts (its __init__ installs it)"
            )
        _layer = _provider()
    return _layer


__all__ = ["JSON_SCHEMA_VERSION", "ReportLayer", "install", "report_layer"]
