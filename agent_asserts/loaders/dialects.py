"""The dialect registry and detection by shape.

A dialect is a module ``agent_asserts.loaders.<name>`` that calls :func:`register_dialect` when
imported, giving a ``detect(data) -> bool`` over the plain document, a ``build(doc, ctx) ->
Suite`` over its nodes and a one-line description of its ``shape`` (used in error messages).
On first use every module of the ``agent_asserts.loaders`` package is imported once, so the
dialect modules register themselves: adding a dialect is adding its module (nothing else is
edited). Each dialect declares its place in the detection order (``order``; the built-ins are
mantle 10, cxas 20, sop 30, contract 40, native 50; a dialect registered from outside defaults
to 100 and comes after them, see docs/suite-files.md).

Every detector is asked; exactly one must say yes. None or several is a problem that lists
the dialects and what each looks like, and asks for ``dialect=``.

>>> import agent_asserts.loaders.dialects as d
>>> d.register_dialect("demo", detect=lambda data: "demo" in data, build=None, shape="`demo:`")
>>> d.get_dialect("demo").shape
'`demo:`'
>>> del d.DIALECTS["demo"]
"""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import attrs

from agent_asserts._text import did_you_mean
from agent_asserts.loaders.nodes import Node, to_plain

if TYPE_CHECKING:
    from agent_asserts.loaders.building import BuildContext
    from agent_asserts.loaders.collector import ProblemCollector
    from agent_asserts.loaders.suite import Suite


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


DIALECTS: dict[str, Dialect] = {}
_imported = False


def register_dialect(
    name: str, *, detect: Detect, build: Build, shape: str, order: int = 100
) -> None:
    """Register (or replace) the dialect ``name``; called by each dialect module on import.

    ``order`` places it in the detection order (lower first; the built-ins use 10 to 50).

    >>> register_dialect("toy", detect=lambda data: "toy" in data, build=None, shape="`toy:`")
    >>> get_dialect("toy").shape
    '`toy:`'
    >>> del DIALECTS["toy"]
    """
    DIALECTS[name] = Dialect(name, detect, build, shape, order)


def _import_builtins() -> None:
    global _imported
    if _imported:
        return
    _imported = True
    package = importlib.import_module("agent_asserts.loaders")
    for info in pkgutil.iter_modules(package.__path__):
        importlib.import_module(f"agent_asserts.loaders.{info.name}")


def dialects() -> list[Dialect]:
    """Every registered dialect, in detection order (then by name).

    >>> "native" in [d.name for d in dialects()]
    True
    """
    _import_builtins()
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


__all__ = [
    "DIALECTS",
    "Dialect",
    "detect_dialect",
    "dialects",
    "get_dialect",
    "register_dialect",
]
