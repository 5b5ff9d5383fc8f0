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
import json
import os
import warnings
from collections.abc import Callable, Iterable, Iterator, Mapping
from pathlib import Path
from typing import Any, BinaryIO, Final

import attrs

from agent_asserts._files import open_input, open_text_input
from agent_asserts.errors import RecordWarning
from agent_asserts.record.adapters._registry import (
    TraceFormat,
    detect,
    file_format,
    file_suffixes,
    formats,
    get_format,
    matching_formats,
)
from agent_asserts.record.adapters.objects import plain_data
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
    require_utf8,
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


def _choose(data: Any, format: str, source: str | None) -> tuple[TraceFormat, bool]:
    """The format of ``data``, and whether it is ``native`` only as the fallback below."""
    if format != "auto":
        return get_format(format), False
    try:
        return get_format(detect(data, source=source)), False
    except RecordError:
        # a mapping sharing a key with the canonical form: read as native, so that a typo
        # gets the canonical decoder's precise message ("did you mean 'events'?")
        if isinstance(data, Mapping) and data.keys() & _NATIVE_KEYS and not matching_formats(data):
            return get_format("native"), True
        raise


def _format_of(data: Any, format: str, source: str | None) -> TraceFormat:
    return _choose(data, format, source)[0]


def _settle(spec: TraceFormat, duplicates: list[Problem] | None, source: str | None) -> None:
    """Duplicate keys of a document read in ``spec``: an error for a canonical record (the
    record's own format is strict), else a :class:`~agent_asserts.errors.RecordWarning` naming
    them, the last value of each kept (as the producer's JSON reader did)."""
    if not duplicates:
        return
    if spec.name == "native":
        raise RecordError(duplicates)
    paths = ", ".join(problem.path for problem in duplicates)
    where = f"{source}: " if source else ""
    warnings.warn(
        f"{where}duplicate keys, the last value of each kept (a {spec.name} trace is read as "
        f"its producer's JSON reader reads it): {paths}",
        RecordWarning,
        stacklevel=2,
    )


def _tagged(records: Iterator[TrialRecord], spec: TraceFormat) -> Iterator[TrialRecord]:
    """The records of a foreign format, each with ``metadata["format"]`` naming it (a canonical
    record is read as it was written). An adapter that names the format as it builds the
    record (``TraceFormat.tags_records``) leaves nothing to do here; any other record is made
    again with the name."""
    if spec.name == "native":
        yield from records
        return
    for record in records:
        if record.metadata.get("format") == spec.name:
            yield record
        else:
            yield attrs.evolve(record, metadata={**record.metadata, "format": spec.name})


def _unmatched(
    records: Iterator[TrialRecord], data: Any, source: str | None
) -> Iterator[TrialRecord]:
    """The records of a mapping read as native only because it shares a key with the canonical
    form: when that fails mostly on unknown keys, the error also says that no trace format
    matched and which keys were looked at (a key that looks like a canonical one, "did you
    mean 'events'?", is a typo in a record: its message stands alone)."""
    try:
        yield from records
    except RecordError as exc:
        unknown = sum(p.message == "unknown key" for p in exc.problems)
        if unknown * 2 < len(exc.problems):
            raise
        try:
            detect(data, source=source)
        except RecordError as undetected:
            raise RecordError([*exc.problems, *undetected.problems]) from None
        raise  # pragma: no cover - no format matched a moment ago


def _read_as(
    choice: tuple[TraceFormat, bool], data: Any, source: str | None, *,
    duplicates: list[Problem] | None = None,
) -> Iterator[TrialRecord]:  # fmt: skip
    """The records of one document in the chosen format (:func:`_choose`), through its
    ``to_records``."""
    spec, fallback = choice
    _settle(spec, duplicates, source)
    if spec.tags_records:  # the adapter names the format as it builds each record
        records = spec.to_records(data, source=source, format_name=spec.name)
    else:
        records = spec.to_records(data, source=source)
    if fallback:
        records = _unmatched(records, data, source)
    return _tagged(records, spec)


def _document_records(
    data: Any, format: str, source: str, path: Path, duplicates: list[Problem]
) -> Iterator[TrialRecord]:
    """The records of a document parsed here from ``path``: through the format's own file
    reader when it has one, unless the document has duplicate keys (which that reader would
    refuse): its data is then read as parsed, the last value of each kept."""
    choice = _choose(data, format, source)
    spec = choice[0]
    if spec.read_records is not None and not (duplicates and spec.name != "native"):
        return _tagged(spec.read_records(path, source=os.fspath(path)), spec)
    return _read_as(choice, data, source, duplicates=duplicates)


def records_of(
    data: Any, format: str = "auto", *, source: str | None = None
) -> Iterator[TrialRecord]:
    """The records of parsed data in the named (or detected) format; SDK objects in it are
    read as their data first (:func:`~agent_asserts.record.adapters.objects.plain_data`)."""
    data = plain_data(data, source=source)
    yield from _read_as(_choose(data, format, source), data, source)


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
        files = folder_files(path) if path.is_dir() else [path]
        for file in files:
            name = os.fspath(file)
            require_regular(file)
            whole = (
                get_format(self.format).read_records is not None
                if self.format != "auto"
                else file_format(name) is not None
            )
            if whole or not _is_lines(file):
                for record in _file_records(file, self.format):
                    yield record.with_state(**changes) if changes else record
                continue
            with open_input(file, refusal(name), whole=False) as handle:
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
        found = _one_line(name, number, raw, Path(name), format, whole=whole)
        if found is None:
            return None
        records = found[0]
        return [record.with_state(**changes) for record in records] if changes else records


def _one_line(
    name: str, number: int, raw: bytes, path: Path, format: str, *, whole: bool = True
) -> tuple[list[TrialRecord], bool] | None:
    """The records of one line of a JSON Lines file (reading a file and
    :meth:`RecordStream.line_records` alike), and whether they are the whole file's: a line in
    a format with a file reader of its own (Mantle events) is read with the whole file (None
    instead when ``whole`` is False)."""
    where = f"{name}:{number}"
    try:
        text = raw.decode("utf-8-sig" if number == 1 else "utf-8")
    except UnicodeDecodeError as exc:
        raise RecordError([Problem("", f"not UTF-8 text (byte {exc.start})", where)]) from None
    if not text.strip():
        return [], False
    duplicates: list[Problem] = []
    data = parse_json(text, where, duplicates=duplicates)
    choice = _choose(data, format, where)
    spec = choice[0]
    if spec.read_records is not None:  # a file of events (Mantle): one run
        if not whole:
            return None
        return list(_tagged(spec.read_records(path, source=name), spec)), True
    return list(_read_as(choice, data, where, duplicates=duplicates)), False


def _path_records(path: Path, format: str) -> Iterator[TrialRecord]:
    if path.is_dir():
        for file in folder_files(path):
            yield from _file_records(file, format)
    else:
        yield from _file_records(path, format)


def record_suffixes() -> tuple[str, ...]:
    """The suffixes of the files a folder's runs are read from: :data:`SUFFIXES`, and those a
    format reads alone (``.eval``).

    >>> record_suffixes()[:3]
    ('.json', '.jsonl', '.ndjson')
    """
    return SUFFIXES + file_suffixes()


def folder_files(folder: Path) -> list[Path]:
    """The files of ``folder`` (not its subfolders) whose runs are read, sorted: every reader
    of a folder (``iter_records``, ``agent-asserts check --record``, ``record``, ``scan``…)
    takes the same files.

    >>> import tempfile
    >>> folder = Path(tempfile.mkdtemp())
    >>> for name in ("b.jsonl", "a.json", "notes.txt", "c.eval"):
    ...     _ = (folder / name).write_text("{}")
    >>> [p.name for p in folder_files(folder)]
    ['a.json', 'b.jsonl', 'c.eval']
    """
    read = record_suffixes()
    return sorted(p for p in folder.iterdir() if p.is_file() and p.suffix in read)


def _file_records(path: Path, format: str) -> Iterator[TrialRecord]:
    name = os.fspath(path)
    require_regular(path)
    own = file_format(name) if format == "auto" else None
    if own is not None and own.read_records is not None:  # a file only that format reads
        yield from _tagged(own.read_records(path, source=name), own)
        return
    if format != "auto":
        spec = get_format(format)
        if spec.read_records is not None:
            yield from _tagged(spec.read_records(path, source=name), spec)
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
        duplicates: list[Problem] = []
        data = parse_json(decode_text(raw, name), name, duplicates=duplicates)
        yield from _document_records(data, format, name, path, duplicates)


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


def refusal(name: str) -> Callable[[str], Exception]:
    """How a record file the readers cannot read is refused: a problem naming the file (the
    ``fail`` of :func:`agent_asserts._files.open_input`).

    >>> print(refusal("run.json")("not a regular file (a FIFO)"))
    invalid record: 1 problem(s)
      run.json: not a regular file (a FIFO)
    """
    return lambda reason: RecordError([Problem("", reason, name)])


def _line_records(path: Path, name: str, format: str) -> Iterator[TrialRecord]:
    with open_input(path, refusal(name), whole=False) as handle:
        yield from _lines_records(handle, path, name, format)


def _lines_records(
    lines: Iterable[bytes], path: Path, name: str, format: str
) -> Iterator[TrialRecord]:
    for number, raw in enumerate(lines, 1):
        found = _one_line(name, number, raw, path, format)
        assert found is not None  # whole=True
        records, whole_file = found
        yield from records
        if whole_file:
            return


def _streamed_records(path: Path, name: str, format: str) -> Iterator[TrialRecord]:
    whole = _read_whole(path, name, format)
    if whole is not None:
        yield from whole
        return
    require_utf8(path, name)  # read as text piece by piece below
    duplicates: list[Problem] = []
    with open_text_input(path, refusal(name), whole=False) as handle:
        shape = sample(handle, source=name, duplicates=duplicates)
    spec = _format_of(shape, format, name)
    if spec.name == "native" and duplicates:
        raise RecordError(duplicates)
    key = _runs_key(spec, shape)
    if spec.read_records is not None:
        yield from _tagged(spec.read_records(path, source=name), spec)
        return
    if key is None:  # no container: read whole
        yield from _whole(path, format, source=name)
        return
    found: list[Problem] | None = None if spec.name == "native" else []
    context: dict[str, Any] = {}
    if key:
        with open_text_input(path, refusal(name), whole=False) as handle:
            context = top_members(handle, key, source=name, duplicates=found)
        _settle(spec, found, name)  # the members beside the runs: once
        if found:
            found.clear()
    with open_text_input(path, refusal(name), whole=False) as handle:
        for where, item in iter_runs(handle, key, source=name, duplicates=found):
            container: Any = {**context, key: [item]} if key else [item]
            run = list(found or ())
            if found:
                found.clear()
            yield from _read_as((spec, False), container, f"{name}: {where}", duplicates=run)


def _read_whole(path: Path, name: str, format: str) -> Iterator[TrialRecord] | None:
    """The records of a large document that surely holds no multi-run container, parsed once
    (the sampling pass would parse it a second time); None when it may hold one, or when
    reading it fails (the sampling pass then reports the problem as it always did)."""
    keys = (key for name_ in formats() for key in get_format(name_).runs)
    if not cannot_stream(path, keys):
        return None
    duplicates: list[Problem] = []
    try:
        data = parse_json(decode_text(read_raw(path), name), name, duplicates=duplicates)
        shape = sample_of(data)
    except (RecordError, RecursionError):
        return None
    spec = _format_of(shape, format, name)
    if spec.read_records is not None and not duplicates:
        return _tagged(spec.read_records(path, source=name), spec)
    return _read_as(_choose(data, format, name), data, name, duplicates=duplicates)


def _runs_key(spec: TraceFormat, shape: Any) -> str | None:
    for key in spec.runs:
        if key == "" and isinstance(shape, list):
            return key
        if key and isinstance(shape, Mapping) and isinstance(shape.get(key), list):
            return key
    return None


def _whole(path: Path, format: str, *, source: str) -> Iterator[TrialRecord]:
    duplicates: list[Problem] = []
    data = parse_json(decode_text(read_raw(path), source), source, duplicates=duplicates)
    choice = _choose(data, format, source)
    yield from _read_as(choice, data, source, duplicates=duplicates)


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


TEXT_SOURCE: Final = "<trace text>"
"""The name the problems of JSON text given to :func:`from_trace` carry."""


def trace_text(text: str, duplicates: list[Problem] | None = None) -> Any:
    """JSON text given to ``from_trace``: one JSON document, or several one after another
    (JSON Lines; what ``ConsoleSpanExporter`` prints, one ``span.to_json()`` after another) as
    the list of them, each parsed strictly (:func:`~agent_asserts.record.parsing.parse_json`;
    with a ``duplicates`` list, duplicate keys are collected there, to be decided once the
    format is known).

    Raises:
        RecordError: The text is not JSON (naming line and column, and saying that a file is
            read with ``TrialRecord.load``).

    >>> trace_text('{"a": 1}'), trace_text('{"a": 1}\\n{"a": 2}\\n')
    ({'a': 1}, [{'a': 1}, {'a': 2}])
    >>> trace_text("runs/trace.json")  # doctest: +NORMALIZE_WHITESPACE
    Traceback (most recent call last):
    ...
    agent_asserts.record.errors.RecordError: invalid record: 1 problem(s)
      <trace text>:1:1: invalid JSON: Expecting value (from_trace reads a str as JSON text;
      read a file with TrialRecord.load(path), or pass a pathlib.Path)
    """
    try:  # the common case, one document: parsed once
        return strict_loads(text.lstrip("\ufeff"), TEXT_SOURCE, duplicates=duplicates)
    except json.JSONDecodeError as exc:
        if exc.msg != "Extra data":
            raise _text_error(exc) from None
    decoder = json.JSONDecoder()
    pieces: list[str] = []
    position, end = 0, len(text)
    while True:
        while position < end and text[position] in " \t\r\n\ufeff":
            position += 1
        if position == end and pieces:
            break
        try:
            _, stop = decoder.raw_decode(text, position)
        except json.JSONDecodeError as exc:
            raise _text_error(exc) from None
        except RecursionError:
            message = "invalid JSON: the document is nested too deeply"
            raise RecordError([Problem("", message, TEXT_SOURCE)]) from None
        pieces.append(text[position:stop])
        position = stop
    return [
        parse_json(piece, f"{TEXT_SOURCE} (document {number})", duplicates=duplicates)
        for number, piece in enumerate(pieces, 1)
    ]


def _text_error(exc: json.JSONDecodeError) -> RecordError:
    where = f"{TEXT_SOURCE}:{exc.lineno}:{exc.colno}"
    message = (
        f"invalid JSON: {exc.msg} (from_trace reads a str as JSON text; read a file "
        f"with TrialRecord.load(path), or pass a pathlib.Path)"
    )
    return RecordError([Problem("", message, where)])


def _text_records(text: str, format: str) -> Iterator[TrialRecord]:
    duplicates: list[Problem] = []
    data = plain_data(trace_text(text, duplicates), source=TEXT_SOURCE)
    choice = _choose(data, format, TEXT_SOURCE)
    yield from _read_as(choice, data, TEXT_SOURCE, duplicates=duplicates)


def from_trace(
    data: Any, format: str = "auto", *, initial_state: Any = None, final_state: Any = None
) -> TrialRecord:
    """The one record of trace data (``TrialRecord.from_trace``): parsed JSON data, the objects
    the SDKs hand you (:mod:`agent_asserts.record.adapters.objects`), JSON text as a ``str``
    (:func:`trace_text`), or a file as an ``os.PathLike``."""
    if isinstance(data, str):
        records: Iterator[TrialRecord] = _with_state(
            _text_records(data, format), initial_state, final_state
        )
    else:
        records = iter_records(data, format, initial_state=initial_state, final_state=final_state)
    return _only(records, None)


__all__ = [
    "LINE_SUFFIXES",
    "STREAM_ABOVE",
    "SUFFIXES",
    "RawLine",
    "RecordStream",
    "folder_files",
    "from_trace",
    "iter_records",
    "load_one",
    "record_suffixes",
    "records_of",
    "refusal",
    "state_value",
    "trace_text",
]
