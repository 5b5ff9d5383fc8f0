"""The record-format registry: names, detectors and readers of every trace format.

A format is registered with a ``detect(data) -> bool`` (does this parsed JSON document have the
format's shape?) and a ``to_records(data, **options)`` iterator (one record per run the
document holds). The built-in formats are the modules of this package that declare ``FORMAT``
and ``ORDER``: found and imported on first use (adding a format is adding its module; nothing
else is edited), so importing the registry stays cheap. The formats are filed in one
:class:`~agent_asserts._registry.Registry` (:data:`FORMATS`), the helper behind every
``register_*`` of the library, which loads the built-ins through its ``load``.

Detection (:func:`detect`) asks every format's detector; each is a few key checks on the
top-level object or the first items of a list, and none raises.

>>> "native" in formats() and "mantle" in formats()
True
>>> detect({"events": [{"kind": "message", "actor_ref": "agent", "payload": {"text": "hi"}}]})
'native'
"""

from __future__ import annotations

import functools
import importlib
import os
import pkgutil
import re
import threading
from collections.abc import Callable, Iterator, Mapping
from types import ModuleType
from typing import Any, Final

import attrs

from agent_asserts._registry import Registry
from agent_asserts._values import depth_message, json_path, too_deep
from agent_asserts.record.errors import Problem, RecordError
from agent_asserts.record.trial import TrialRecord

Detector = Callable[[Any], bool]
"""Whether a parsed JSON document has a format's shape (long arrays may be cut short)."""

RecordsReader = Callable[..., Iterator[TrialRecord]]
"""``to_records(data, **options)``: one record per run the document holds."""

PathReader = Callable[..., Iterator[TrialRecord]]
"""``read_records(path, **options)``: a format's own way to read a file (JSON Lines of events)."""

PACKAGE: Final = "agent_asserts.record.adapters"
"""The package whose modules are the built-in formats: a public module of it that declares
``FORMAT`` (its name) and ``ORDER`` (its place in :func:`formats`) is one, with its ``detect``,
``to_records`` and optional ``RUNS``, ``read_records``, ``FILES`` (file suffixes only its
``read_records`` reads) and ``TAGS_RECORDS`` (its ``to_records`` takes ``format_name``). Found
on first use; no list to edit."""

_NAME: Final = re.compile(r"[a-z][a-z0-9_-]*\Z")


@attrs.frozen
class TraceFormat:
    """One registered format.

    Attributes:
        name: The format's name (``openai-chat``).
        detect: Whether a document has this format's shape.
        to_records: The records of a document, one per run.
        runs: Keys of a container holding one run per item: a top-level key whose array holds
            runs (``"data"``), or ``""`` for a top-level array of runs. ``iter_records`` streams
            such arrays item by item, giving ``to_records`` the container with that one item.
        read_records: A format's own reader of a file path (None: the generic JSON / JSON Lines
            reading applies).
        files: File suffixes (``".eval"``) that only this format reads, with its
            ``read_records``: such a file (a zip archive, say) is never parsed as JSON, and a
            folder's files with them are read too.
        tags_records: Whether ``to_records`` takes the option ``format_name`` and writes it
            into each record's ``metadata["format"]`` as it builds the record (the built-in
            formats whose module sets ``TAGS_RECORDS``); the readers otherwise add it to each
            record after, which makes the record a second time.

    >>> get_format("native").runs, get_format("mantle").runs, get_format("mcp").files
    (('',), (), ())
    """

    name: str
    detect: Detector
    to_records: RecordsReader
    runs: tuple[str, ...] = ()
    read_records: PathReader | None = None
    files: tuple[str, ...] = ()
    tags_records: bool = False


def _format_modules() -> list[ModuleType]:
    """The modules of :data:`PACKAGE` that declare a format, in ``ORDER`` (then by name)."""
    package = importlib.import_module(PACKAGE)
    found = []
    for info in pkgutil.iter_modules(package.__path__):
        if info.name.startswith("_"):
            continue
        module = importlib.import_module(f"{PACKAGE}.{info.name}")
        if hasattr(module, "FORMAT"):
            found.append(module)
    return sorted(found, key=lambda module: (module.ORDER, module.FORMAT))


def load_builtins() -> None:
    """Register the built-in formats (the ``load`` of :data:`FORMATS`): every module of
    :data:`PACKAGE` that declares ``FORMAT`` and ``ORDER``, in that order."""
    global _builtins_loaded
    for module in _format_modules():
        spec = TraceFormat(
            module.FORMAT,
            module.detect,
            depth_checked(module.FORMAT, module.to_records),
            tuple(getattr(module, "RUNS", ())),
            getattr(module, "read_records", None),
            tuple(getattr(module, "FILES", ())),
            getattr(module, "TAGS_RECORDS", False),
        )
        FORMATS.add_builtin(spec.name, spec)
    _builtins_loaded = True


FORMATS: Registry[TraceFormat] = Registry("trace format", load=load_builtins)
"""Every registered format by name: the built-ins (in ``ORDER``), then those added with
:func:`register_format`, in registration order."""

_builtins_loaded = False
_load_lock: Final = threading.RLock()


def _table() -> Registry[TraceFormat]:
    """:data:`FORMATS` with its built-ins loaded. A thread that asks while another loads them
    waits for it (it would otherwise see an empty table: the registry marks itself loaded
    before it loads); the loading thread itself (an adapter module using the registry as it is
    imported) sees what is registered so far."""
    if not _builtins_loaded:
        with _load_lock:
            FORMATS.names()
    return FORMATS


def depth_checked(name: str, to_records: RecordsReader) -> RecordsReader:
    """``to_records`` refusing a document nested past ``MAX_DEPTH`` (a ``RecordError`` at its
    JSON path) before the adapter walks it; ``native`` checks in ``TrialRecord.from_dict``.

    >>> deep: Any = 1
    >>> for _ in range(300): deep = [deep]
    >>> reader = depth_checked("x", lambda data, **options: iter(()))
    >>> reader({"a": deep}, source="run.json")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    agent_asserts.record.errors.RecordError: invalid record: 1 problem(s)
      run.json: $.a[0]...[0]: nested more than 200 levels deep (the limit of nesting)
    """
    if name == "native":
        return to_records

    @functools.wraps(to_records)
    def checked(data: Any, **options: Any) -> Iterator[TrialRecord]:
        where = too_deep(data)
        if where is not None:
            problem = Problem(json_path(where), depth_message(), options.get("source"))
            raise RecordError([problem])
        return to_records(data, **options)

    return checked


def register_format(
    name: str,
    *,
    detect: Detector,
    to_records: RecordsReader,
    runs: tuple[str, ...] = (),
    read_records: PathReader | None = None,
    replace: bool = False,
    files: tuple[str, ...] = (),
) -> TraceFormat:
    """Add a trace format: every entry point (``TrialRecord.load``, ``iter_records``, the CLI,
    suites) can then read it by name, and ``format="auto"`` detects it.

    Args:
        name: Lower-case letters, digits, ``-`` and ``_``, starting with a letter; not ``auto``.
        detect: ``detect(data) -> bool`` on the parsed document (arrays may be cut to their
            first items when a large file is sampled); it must not match other formats' data.
        to_records: ``to_records(data, **options)`` yielding one ``TrialRecord`` per run;
            ``options`` holds at least ``source`` (a name for parse errors, or None).
        runs: Keys of a multi-run container (see :class:`TraceFormat`).
        read_records: Optional ``read_records(path, **options)`` for a file layout of its own.
        replace: Allow replacing a registered format of the same name.
        files: File suffixes that only this format reads (with ``read_records``, which is then
            required): never parsed as JSON.

    Returns:
        The registered format.

    Raises:
        ValueError: A bad name, or a name already registered (without ``replace=True``).

    >>> def my_detect(data):
    ...     return isinstance(data, dict) and "my_trace" in data
    >>> def my_records(data, **options):
    ...     yield TrialRecord.builder().agent(data["my_trace"]).build()
    >>> _ = register_format("my-trace", detect=my_detect, to_records=my_records)
    >>> detect({"my_trace": "hello"})
    'my-trace'
    >>> unregister_format("my-trace")
    """
    if not isinstance(name, str) or not _NAME.match(name) or name == "auto":
        raise ValueError(
            f"a format name is lower-case letters, digits, '-' and '_', starting with a letter, "
            f"and not 'auto' (got {name!r})"
        )
    if not callable(detect) or not callable(to_records):
        raise ValueError(f"format {name!r}: detect and to_records must be callables")
    if files and read_records is None:
        raise ValueError(f"format {name!r}: files= needs read_records, which reads them")
    table = _table()
    if name in table and not replace:
        raise ValueError(f"format {name!r} is already registered (pass replace=True to replace it)")
    spec = TraceFormat(
        name, detect, depth_checked(name, to_records), tuple(runs), read_records, tuple(files)
    )
    return table.add(name, spec)


def unregister_format(name: str) -> None:
    """Remove a format added with :func:`register_format` (KeyError when unknown).

    >>> unregister_format("nope")
    Traceback (most recent call last):
    ...
    KeyError: "no format 'nope' is registered"
    """
    table = _table()
    if not isinstance(name, str) or name not in table:
        raise KeyError(f"no format {name!r} is registered")
    table.remove(name)


def formats() -> tuple[str, ...]:
    """The registered format names, built-ins first, then in registration order.

    >>> formats()[:3]
    ('native', 'mantle', 'ces')
    """
    return _table().names()


def get_format(name: str) -> TraceFormat:
    """The format registered under ``name``.

    Raises:
        RecordError: No such format (naming the registered ones).

    >>> get_format("natve")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    agent_asserts.record.errors.RecordError: invalid record: 1 problem(s)
      format: unknown trace format 'natve' (did you mean 'native'?); known formats: native, ...
    """
    table = _table()
    spec = table.get(name) if isinstance(name, str) else None
    if spec is None:
        if isinstance(name, str):
            message = table.unknown(name, known="known formats")
        else:
            message = f"unknown trace format {name!r}; known formats: {', '.join(table)}"
        raise RecordError([Problem("format", message)])
    return spec


def file_format(path: str) -> TraceFormat | None:
    """The format that alone reads files with ``path``'s suffix (its ``files``), if any.

    >>> file_format("run.json") is None
    True
    """
    suffix = os.path.splitext(path)[1]
    if not suffix:
        return None
    for _, spec in _table().entries():
        if suffix in spec.files:
            return spec
    return None


def file_suffixes() -> tuple[str, ...]:
    """Every suffix a registered format reads alone (``files``), in registration order.

    >>> ".json" in file_suffixes()
    False
    """
    return tuple(suffix for _, spec in _table().entries() for suffix in spec.files)


def looked_at(data: Any) -> str:
    """What a detector could see of ``data``, for error messages.

    >>> looked_at({"b": 1, "a": 2})
    "top-level keys 'a', 'b'"
    >>> looked_at([{"role": "user"}])
    "a list whose first item has keys 'role'"
    >>> looked_at(3)
    'a int'
    """
    if isinstance(data, Mapping):
        keys = sorted(str(key) for key in data)
        shown = ", ".join(repr(key) for key in keys[:12]) + (", …" if len(keys) > 12 else "")
        return f"top-level keys {shown}" if keys else "an empty object"
    if isinstance(data, list):
        if not data:
            return "an empty list"
        first = data[0]
        if isinstance(first, Mapping):
            return f"a list whose first item has {looked_at(first).removeprefix('top-level ')}"
        return f"a list whose first item is a {type(first).__name__}"
    return f"a {type(data).__name__}"


def matching_formats(data: Any) -> tuple[str, ...]:
    """Every registered format whose detector accepts ``data``.

    >>> matching_formats({"detailed_trace": []})
    ('ces',)
    """
    return tuple(name for name, spec in _table().entries() if spec.detect(data))


def detect(data: Any, *, source: str | None = None) -> str:
    """The name of the format ``data`` (a parsed JSON document) has, from its shape alone.

    Args:
        data: The document.
        source: A file name to mention in the error.

    Raises:
        RecordError: No format matches, or several do: the message names the candidates and
            the keys looked at.

    >>> detect({"detailed_trace": ["Agent Text: hi"]})
    'ces'
    >>> detect({"foo": 1})  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    agent_asserts.record.errors.RecordError: invalid record: 1 problem(s)
      $: cannot tell the trace format: no format matches (looked at top-level keys 'foo'); ...
    """
    found = matching_formats(data)
    if len(found) == 1:
        return found[0]
    seen = looked_at(data)
    if not found:
        known = ", ".join(_table())
        message = f"no format matches (looked at {seen}); known formats: {known}"
    else:
        message = f"several formats match: {', '.join(found)} (looked at {seen})"
    problem = Problem("$", f"cannot tell the trace format: {message}; pass format=NAME", source)
    raise RecordError([problem])


def records_from_data(
    data: Any, format: str = "auto", *, source: str | None = None, **options: Any
) -> Iterator[TrialRecord]:
    """The records of a parsed document, in the named format or the detected one.

    >>> rec, = records_from_data({"events": []})
    >>> rec.events
    ()
    """
    name = detect(data, source=source) if format == "auto" else format
    return get_format(name).to_records(data, source=source, **options)


__all__ = [
    "TraceFormat",
    "detect",
    "file_format",
    "file_suffixes",
    "formats",
    "get_format",
    "looked_at",
    "matching_formats",
    "records_from_data",
    "register_format",
    "unregister_format",
]
