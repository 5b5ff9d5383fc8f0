"""The one way every entry point reads runs: :func:`iter_records` (lazy, one record per run),
used by ``TrialRecord.load`` / ``from_trace``, the CLI, the pytest fixture, suite files and
``evaluate_many``.

A source is parsed data, a file or a folder (every ``.json``/``.jsonl``/``.ndjson`` file in
it, sorted). A file is JSON Lines (one document per line) or one JSON document; a document in a
format with a multi-run container (``RUNS``) is streamed run by run, so a large export is never
held in memory at once. ``format="auto"`` detects each document's format from its shape.

>>> import json, pathlib, tempfile
>>> folder = pathlib.Path(tempfile.mkdtemp())
>>> _ = (folder / "runs.jsonl").write_text(
...     '{"reply": "a"}\\n{"detailed_trace": ["Agent Text: b"]}\\n')
>>> [rec.reply for rec in iter_records(folder, final_state={"done": True})]
['a', 'b']
"""

from __future__ import annotations

import io
import os
from collections.abc import Iterable, Iterator, Mapping
from pathlib import Path
from typing import Any, BinaryIO, Final

from agent_asserts._files import open_input
from agent_asserts.record.adapters._registry import (
    TraceFormat,
    detect,
    formats,
    get_format,
    matching_formats,
)
from agent_asserts.record.adapters.native import parsed_records
from agent_asserts.record.decoding import TOP_LEVEL_KEYS
from agent_asserts.record.errors import Problem, RecordError
from agent_asserts.record.parsing import (
    cannot_stream,
    decode_text,
    iter_runs,
    load_json,
    parse_json,
    read_raw,
    require_regular,
    sample,
    sample_of,
    strict_loads,
    top_members,
)
from agent_asserts.record.trial import TrialRecord

SUFFIXES: Final = (".json", ".jsonl", ".ndjson")
"""The files of a folder that are read."""
LINE_SUFFIXES: Final = (".jsonl", ".ndjson")
STREAM_ABOVE: Final = 1 << 20
"""Files larger than this (bytes) are read piece by piece."""
SNIFF: Final = 1 << 16
"""How much of a file's first line is read to tell JSON Lines (whose first line must be shorter,
unless the file is named ``.jsonl``/``.ndjson``) from one JSON document."""
_NATIVE_KEYS: Final = frozenset(TOP_LEVEL_KEYS)


def state_value(value: Any, name: str = "state") -> Any:
    """A state given as data, or as a path to a JSON file (an ``os.PathLike``, or a ``str``
    ending in ``.json``), read strictly.

    >>> state_value({"a": 1}), state_value("plain text")
    ({'a': 1}, 'plain text')
    """
    if isinstance(value, os.PathLike) or (
        isinstance(value, str) and value.lower().endswith(".json")
    ):
        return load_json(value)[1]
    return value


def _format_of(data: Any, format: str, source: str | None) -> TraceFormat:
    if format != "auto":
        return get_format(format)
    try:
        return get_format(detect(data, source=source))
    except RecordError:
        # a mapping sharing a key with the canonical form: read as native, so that a typo
        # gets the canonical decoder's precise message ("did you mean 'events'?")
        if isinstance(data, Mapping) and data.keys() & _NATIVE_KEYS and not matching_formats(data):
            return get_format("native")
        raise


def records_of(
    data: Any, format: str = "auto", *, source: str | None = None
) -> Iterator[TrialRecord]:
    """The records of parsed data in the named (or detected) format."""
    yield from _format_of(data, format, source).to_records(data, source=source)


def _parsed_records(spec: TraceFormat, data: Any, source: str) -> Iterator[TrialRecord]:
    """The records of data parsed here from a file, which nothing else holds."""
    if spec.name == "native":
        return parsed_records(data, source=source)
    return spec.to_records(data, source=source)


def _with_state(records: Iterator[TrialRecord], initial: Any, final: Any) -> Iterator[TrialRecord]:
    if initial is None and final is None:
        yield from records
        return
    changes: dict[str, Any] = {}
    if initial is not None:
        changes["initial_state"] = state_value(initial, "initial_state")
    if final is not None:
        changes["final_state"] = state_value(final, "final_state")
    for record in records:
        yield record.with_state(**changes)


def iter_records(
    source: Any,
    format: str = "auto",
    *,
    initial_state: Any = None,
    final_state: Any = None,
) -> RecordStream:
    """The records of every run in ``source``, lazily.

    The iterator returned (a :class:`RecordStream`) also says where it reads from, so that
    ``evaluate_many`` can hand the lines of a JSON Lines file to its workers, which read them
    there.

    Args:
        source: A path (file or folder; ``str`` or ``os.PathLike``), or data already parsed
            from JSON.
        format: A registered format name, or ``"auto"`` to detect each document's format.
        initial_state: S0 for every record (data, or a JSON file path); None keeps the
            record's own.
        final_state: Sf likewise.

    Raises:
        RecordError: An unreadable document or an undetectable format (naming the file and
            where); raised when the iteration reaches it.
        OSError: A file cannot be read.

    >>> [r.reply for r in iter_records([{"reply": "x"}, {"reply": "y"}], "native")]
    ['x', 'y']
    """
    return RecordStream(source, format, initial_state=initial_state, final_state=final_state)


RawLine = tuple[str, int, bytes]
"""One line of a JSON Lines file as :meth:`RecordStream.raw_lines` gives it: the file's name,
the line's number (from 1) and its bytes."""


class RecordStream(Iterator[TrialRecord]):
    """What :func:`iter_records` returns: an iterator over the records of ``source`` that
    keeps where it reads from (``source``, ``format``, ``initial_state``, ``final_state``).

    Iterating it reads the runs in this process. A batch that evaluates them elsewhere may
    instead take the stream's lines before it started (:meth:`raw_lines`) and turn each line
    into its records where it is evaluated (:meth:`line_records`), with the same records and
    the same errors (naming ``file:line``).

    >>> stream = iter_records([{"reply": "x"}], "native")
    >>> stream.source, stream.format, [r.reply for r in stream], next(stream, None)
    ([{'reply': 'x'}], 'native', ['x'], None)
    """

    def __init__(
        self, source: Any, format: str = "auto", *, initial_state: Any = None,
        final_state: Any = None,
    ) -> None:  # fmt: skip
        self.source = source
        self.format = format
        self.initial_state = initial_state
        self.final_state = final_state
        self._records: Iterator[TrialRecord] | None = None

    def __iter__(self) -> RecordStream:
        return self

    def __next__(self) -> TrialRecord:
        if self._records is None:
            if isinstance(self.source, str | os.PathLike):
                records = _path_records(Path(self.source), self.format)
            else:
                records = records_of(self.source, self.format)
            self._records = _with_state(records, self.initial_state, self.final_state)
        return next(self._records)

    def state_changes(self) -> dict[str, Any]:
        """The ``with_state`` keywords every record gets (read now when a path is given).

        >>> iter_records([], initial_state={"n": 0}).state_changes()
        {'initial_state': {'n': 0}}
        """
        changes: dict[str, Any] = {}
        if self.initial_state is not None:
            changes["initial_state"] = state_value(self.initial_state, "initial_state")
        if self.final_state is not None:
            changes["final_state"] = state_value(self.final_state, "final_state")
        return changes

    @property
    def started(self) -> bool:
        """Whether records were read from the stream (or its lines taken) already.

        >>> stream = iter_records([{"reply": "x"}])
        >>> stream.started, next(stream).reply, stream.started
        (False, 'x', True)
        """
        return self._records is not None

    def raw_lines(
        self, changes: Mapping[str, Any] | None = None
    ) -> Iterator[RawLine | TrialRecord] | None:
        """The stream as the lines of its JSON Lines files, unparsed, for a stream over a
        path that has not started (None otherwise); the stream is then used up.

        In reading order: each line (blank ones too) of a file that iterating would read line
        by line, as a :data:`RawLine`, and the records of any other file, read here with
        ``changes`` (default: :meth:`state_changes`, read at the first item). The files are
        checked (and their errors raised) as iterating would, when reached; each line becomes
        its records through :meth:`line_records`.

        >>> import pathlib, tempfile
        >>> path = pathlib.Path(tempfile.mkdtemp(), "runs.jsonl")
        >>> _ = path.write_text('{"reply": "a"}\\n')
        >>> [line[1:] for line in iter_records(path).raw_lines()]
        [(1, b'{"reply": "a"}\\n')]
        """
        if self.started or not isinstance(self.source, str | os.PathLike):
            return None
        self._records = iter(())
        return self._raw_lines(Path(self.source), changes)

    def _raw_lines(
        self, path: Path, changes: Mapping[str, Any] | None
    ) -> Iterator[RawLine | TrialRecord]:
        if changes is None:
            changes = self.state_changes()
        files = [path]
        if path.is_dir():
            files = sorted(p for p in path.iterdir() if p.is_file() and p.suffix in SUFFIXES)
        for file in files:
            name = os.fspath(file)
            require_regular(file)
            whole = self.format != "auto" and get_format(self.format).read_records is not None
            if whole or not _is_lines(file):
                for record in _file_records(file, self.format):
                    yield record.with_state(**changes) if changes else record
                continue
            with file.open("rb") as handle:
                for number, raw in enumerate(handle, 1):
                    yield name, number, raw

    @staticmethod
    def line_records(
        line: RawLine, format: str = "auto", changes: Mapping[str, Any] | None = None, *,
        whole: bool = True,
    ) -> list[TrialRecord] | None:  # fmt: skip
        """The records of one line of a JSON Lines file, as iterating reads them: none for a
        blank line, else the line's runs in ``format`` (``"auto"``: detected), each with
        ``changes`` (:meth:`state_changes`) applied. A line in a format that reads a whole
        file of events (Mantle) gives the whole file's records, which iterating reads instead
        of that line and the lines after it; with ``whole=False`` it gives None instead.

        Raises:
            RecordError: Not UTF-8, not JSON, an undetectable format or an invalid run,
                naming ``file:line``.

        >>> RecordStream.line_records(("runs.jsonl", 2, b'{"reply": "hi"}\\n'))[0].reply
        'hi'
        >>> RecordStream.line_records(("runs.jsonl", 3, b"{oops\\n"))
        Traceback (most recent call last):
        ...
        agent_asserts.record.errors.RecordError: invalid record: 1 problem(s)
          runs.jsonl:3:1:2: invalid JSON: Expecting property name enclosed in double quotes
        """
        name, number, raw = line
        where = f"{name}:{number}"
        try:
            text = raw.decode("utf-8-sig" if number == 1 else "utf-8")
        except UnicodeDecodeError as exc:
            raise RecordError([Problem("", f"not UTF-8 text (byte {exc.start})", where)]) from None
        if not text.strip():
            return []
        data = parse_json(text, where)
        spec = _format_of(data, format, where)
        if spec.read_records is not None:  # a file of events (Mantle): one run
            if not whole:
                return None
            records = list(spec.read_records(Path(name), source=name))
        else:
            records = list(_parsed_records(spec, data, where))
        return [record.with_state(**changes) for record in records] if changes else records


def _path_records(path: Path, format: str) -> Iterator[TrialRecord]:
    if path.is_dir():
        for file in sorted(p for p in path.iterdir() if p.is_file() and p.suffix in SUFFIXES):
            yield from _file_records(file, format)
    else:
        yield from _file_records(path, format)


def _file_records(path: Path, format: str) -> Iterator[TrialRecord]:
    name = os.fspath(path)
    require_regular(path)
    if format != "auto":
        spec = get_format(format)
        if spec.read_records is not None:
            yield from spec.read_records(path, source=name)
            return
    if path.suffix in LINE_SUFFIXES:
        yield from _line_records(path, name, format)
    elif path.stat().st_size > STREAM_ABOVE:
        if _is_lines(path):
            yield from _line_records(path, name, format)
        else:
            yield from _streamed_records(path, name, format)
    else:
        raw = read_raw(path)  # read once: JSON Lines is told from the bytes in memory
        if _holds_lines(io.BytesIO(raw)):
            yield from _lines_records(io.BytesIO(raw), path, name, format)
            return
        data = parse_json(decode_text(raw, name), name)
        spec = _format_of(data, format, name)
        if spec.read_records is not None:
            yield from spec.read_records(path, source=name)
        else:
            yield from _parsed_records(spec, data, name)


def _is_lines(path: Path) -> bool:
    """JSON Lines: by suffix, or when the first line (at most :data:`SNIFF` characters) is a
    whole JSON value and another non-blank line follows.

    Raises:
        RecordError: The file is not a regular file, or reading it would block
            (``/proc/kmsg``; :func:`agent_asserts._files.open_input`).
    """
    if path.suffix in LINE_SUFFIXES:
        return True
    name = os.fspath(path)
    with open_input(path, lambda reason: RecordError([Problem("", reason, name)])) as handle:
        return _holds_lines(handle)


def _holds_lines(handle: BinaryIO) -> bool:
    """Whether the first line read from ``handle`` (at most :data:`SNIFF` bytes) is a whole
    JSON value and another non-blank line follows.

    >>> _holds_lines(io.BytesIO(b'{"a": 1}\\n{"a": 2}\\n')), _holds_lines(io.BytesIO(b'{\\n}'))
    (True, False)
    """
    first = handle.readline(SNIFF)
    if not first.endswith(b"\n"):
        return False
    try:
        strict_loads(first.decode("utf-8-sig"))
    except ValueError:  # not JSON, not UTF-8, or not strict JSON
        return False
    return any(line.strip() for line in iter(lambda: handle.readline(SNIFF), b""))


def _line_records(path: Path, name: str, format: str) -> Iterator[TrialRecord]:
    with path.open("rb") as handle:
        yield from _lines_records(handle, path, name, format)


def _lines_records(
    lines: Iterable[bytes], path: Path, name: str, format: str
) -> Iterator[TrialRecord]:
    for number, raw in enumerate(lines, 1):
        where = f"{name}:{number}"
        try:
            line = raw.decode("utf-8-sig" if number == 1 else "utf-8")
        except UnicodeDecodeError as exc:
            raise RecordError([Problem("", f"not UTF-8 text (byte {exc.start})", where)]) from None
        if not line.strip():
            continue
        data = parse_json(line, where)
        spec = _format_of(data, format, where)
        if spec.read_records is not None:  # a file of events (Mantle): one run
            yield from spec.read_records(path, source=name)
            return
        yield from _parsed_records(spec, data, where)


def _streamed_records(path: Path, name: str, format: str) -> Iterator[TrialRecord]:
    whole = _read_whole(path, name, format)
    if whole is not None:
        yield from whole
        return
    with path.open(encoding="utf-8-sig") as handle:
        shape = sample(handle, source=name)
    spec = _format_of(shape, format, name)
    key = _runs_key(spec, shape)
    if spec.read_records is not None or key is None:
        yield from (spec.read_records or _whole)(path, source=name)  # no container: read whole
        return
    context: dict[str, Any] = {}
    if key:
        with path.open(encoding="utf-8-sig") as handle:
            context = top_members(handle, key, source=name)
    with path.open(encoding="utf-8-sig") as handle:
        for where, item in iter_runs(handle, key, source=name):
            container: Any = {**context, key: [item]} if key else [item]
            yield from _parsed_records(spec, container, f"{name}: {where}")


def _read_whole(path: Path, name: str, format: str) -> Iterator[TrialRecord] | None:
    """The records of a large document that surely holds no multi-run container, parsed once
    (the sampling pass would parse it a second time); None when it may hold one, or when
    reading it fails (the sampling pass then reports the problem as it always did)."""
    keys = (key for name_ in formats() for key in get_format(name_).runs)
    if not cannot_stream(path, keys):
        return None
    try:
        _, data = load_json(path)
        shape = sample_of(data)
    except (RecordError, RecursionError):
        return None
    spec = _format_of(shape, format, name)
    if spec.read_records is not None:
        return spec.read_records(path, source=name)
    return _parsed_records(_format_of(data, "auto", name), data, name)


def _runs_key(spec: TraceFormat, shape: Any) -> str | None:
    for key in spec.runs:
        if key == "" and isinstance(shape, list):
            return key
        if key and isinstance(shape, Mapping) and isinstance(shape.get(key), list):
            return key
    return None


def _whole(path: Path, *, source: str) -> Iterator[TrialRecord]:
    _, data = load_json(path)
    yield from _parsed_records(_format_of(data, "auto", source), data, source)


def load_one(
    path: str | os.PathLike[str],
    format: str = "auto",
    *,
    initial_state: Any = None,
    final_state: Any = None,
) -> TrialRecord:
    """The one record of a file holding one run (``TrialRecord.load``).

    Raises:
        RecordError: The file holds no run, or several (use :func:`iter_records`).
    """
    records = iter_records(path, format, initial_state=initial_state, final_state=final_state)
    return _only(records, os.fspath(path))


def _only(records: Iterator[TrialRecord], source: str | None) -> TrialRecord:
    first = next(records, None)
    if first is None:
        raise RecordError([Problem("$", "holds no run", source)])
    if next(records, None) is not None:
        message = "holds several runs: read them with agent_asserts.iter_records(...)"
        raise RecordError([Problem("$", message, source)])
    return first


def from_trace(
    data: Any, format: str = "auto", *, initial_state: Any = None, final_state: Any = None
) -> TrialRecord:
    """The one record of parsed trace data (``TrialRecord.from_trace``)."""
    records = iter_records(data, format, initial_state=initial_state, final_state=final_state)
    return _only(iter(records), None)


__all__ = [
    "LINE_SUFFIXES",
    "STREAM_ABOVE",
    "SUFFIXES",
    "RawLine",
    "RecordStream",
    "from_trace",
    "iter_records",
    "load_one",
    "records_of",
    "state_value",
]
