"""``agent-asserts watch``: evaluate record files as they appear, and JSON Lines as they grow.

Every poll (``--interval`` seconds, default 1) lists ``--record-dir``: a ``.json`` file is
evaluated once, on the first poll where its size and modification time are unchanged since the
previous poll (so a file still being written is not read half-way); a ``.jsonl`` file is read
from where the last poll stopped, one record per complete line (a line without its newline yet
waits for the next poll; a file that shrinks was rotated and is read again from its start).
Files whose name starts with ``.`` or ends in ``.tmp`` are skipped. Each case result is one
JSON line (``CaseResult.to_dict()`` with ``metadata.source`` = ``file`` or ``file:line``)
appended to ``--output`` (default: standard output) with one ``write`` on a file opened for
appending, so a line is never torn or interleaved; a line the file system takes only in part
(a full disk) is cut off again and the watch stops with ``error: cannot write --output FILE:
reason`` (exit 2). A new output file has mode 0644. A record that cannot be read is a
``FAILED`` case carrying the error; the others go on. Ctrl-C stops the watch between two
records: one line on standard error, exit code 130, everything written so far intact.
``--max-polls N`` stops after N polls (for scripts and tests).

Each case runs under the same limits as ``agent-asserts check`` (the options of
:mod:`agent_asserts.cli.support`): ``--timeout SECONDS`` (default 60; 0: none), past which the
case is ``FAILED`` naming the check that was running and the limit, and the watch goes on to
the next case and record; ``--judge MODULE:CALLABLE`` for judged checks, each call bounded by
``--judge-timeout SECONDS``.

>>> import json, pathlib, tempfile
>>> from agent_asserts.testing import DEMO_RECORD
>>> tmp = pathlib.Path(tempfile.mkdtemp())
>>> _ = (tmp / "suite.yaml").write_text("cases: [{name: ok, checks: [succeeded]}]")
>>> (tmp / "runs").mkdir(); _ = (tmp / "runs" / "a.jsonl").write_text(json.dumps(DEMO_RECORD) + "\\n")
>>> main_args = [str(tmp / "suite.yaml"), "--record-dir", str(tmp / "runs"),
...              "--output", str(tmp / "out.jsonl"), "--interval", "0", "--max-polls", "2"]
>>> from agent_asserts.cli import main
>>> main(["watch", *main_args])
0
>>> [(r["name"], r["verdict"], r["metadata"]["source"][-9:])
...  for r in map(json.loads, (tmp / "out.jsonl").read_text().splitlines())]
[('ok', 'passed', 'a.jsonl:1')]
"""  # noqa: E501

from __future__ import annotations

import argparse
import contextlib
import json
import os
import time
from collections.abc import Callable, Iterable, Iterator, Mapping
from functools import partial
from pathlib import Path
from typing import IO, Any

import attrs

from agent_asserts._files import open_input
from agent_asserts._text import escape_controls, json_escape_controls
from agent_asserts.batch import load_error_text, unloadable_cases
from agent_asserts.cli import EXIT_INPUT, EXIT_INTERRUPTED, EXIT_OK
from agent_asserts.cli.support import judge_of, limit_keywords
from agent_asserts.loaders import Suite, load
from agent_asserts.record import RecordError, TrialRecord
from agent_asserts.record.adapters import get_format, records_from_data
from agent_asserts.record.parsing import load_json, strict_loads
from agent_asserts.record.reading import refusal
from agent_asserts.results import CaseResult


@attrs.define
class _FileState:
    size: int = -1
    mtime: int = -1
    offset: int = 0
    line: int = 0
    done: bool = False


OUTPUT_MODE = 0o644
"""The permissions of an ``--output`` file the watch creates (before the umask)."""


class ResultWriter:
    """Appends one JSON line per result, each with a single ``os.write`` (line-safe).

    A line is written whole or not at all: when the file system takes only part of it (a
    full disk, a file size limit), the part is cut off again and ``OSError`` is raised, so
    the file holds only whole lines. A file it creates has mode 0644 (less any umask bits).

    >>> import os, sys, tempfile
    >>> path, umask = os.path.join(tempfile.mkdtemp(), "out.jsonl"), os.umask(0o022)
    >>> writer = ResultWriter(path, sys.stdout)
    >>> writer.write({"name": "ok", "text": "\\ud800"}); writer.close(); _ = os.umask(umask)
    >>> open(path).read(), oct(os.stat(path).st_mode & 0o777)
    ('{"name": "ok", "text": "\\\\ud800"}\\n', '0o644')
    """

    def __init__(self, path: str | None, out: IO[str]) -> None:
        self._out = out
        self._fd = (
            None
            if path is None
            else os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, OUTPUT_MODE)
        )
        self.written = 0
        self.failed: OSError | None = None

    def write(self, result: dict[str, Any]) -> None:
        """Append ``result`` as one line (``OSError``, also kept in ``failed``, when it cannot
        be written whole)."""
        # a lone surrogate (a legal JSON escape in a record) is written as that escape, and
        # the control and bidi characters JSON allows raw as \uXXXX (the terminal, a log)
        line = json_escape_controls(json.dumps(result, ensure_ascii=False, default=str)) + "\n"
        data = line.encode("utf-8", "backslashreplace")
        if self._fd is None:
            self._out.write(data.decode("utf-8"))
            self._out.flush()
        else:
            try:
                _append_whole(self._fd, data)
            except OSError as exc:
                self.failed = exc  # the output's failure, not a record file's
                raise
        self.written += 1

    def close(self) -> None:
        """Close the output file (standard output stays open)."""
        if self._fd is not None:
            os.close(self._fd)
            self._fd = None


def _append_whole(fd: int, data: bytes) -> None:
    """``data`` appended whole (one ``os.write``, more only when the system takes part of it);
    when a write fails part-way (a full disk, a file size limit), what was written of it is
    cut off again (``ftruncate`` to the size before) and the ``OSError`` raised."""
    start = os.fstat(fd).st_size
    try:
        while data:
            data = data[os.write(fd, data) :]
    except OSError:
        _cut(fd, start)
        raise


def _cut(fd: int, size: int) -> None:
    with contextlib.suppress(OSError):
        if os.fstat(fd).st_size > size:
            os.ftruncate(fd, size)


def record_reader(fmt: str) -> Callable[[Any], list[TrialRecord]]:
    """How one parsed JSON document becomes its records in format ``fmt`` (``auto``: detected).

    Raises:
        RecordError: ``fmt`` is not a registered format (naming the registered ones).

    >>> [r.steps for r in record_reader("auto")({"events": [], "steps": 3})]
    [3]
    """
    if fmt != "auto":
        get_format(fmt)

    def read(data: Any) -> list[TrialRecord]:
        return list(records_from_data(data, fmt))

    return read


class Watcher:
    """The polling state of one watch: which files were evaluated, how far each JSONL was read.

    ``evaluation`` holds the keywords of ``Suite.evaluate`` for every record: ``judge``,
    ``timeout`` (each case's hard limit) and ``judge_timeout``.
    """

    def __init__(
        self,
        suite: Suite,
        folder: Path,
        reader: Callable[[Any], list[TrialRecord]],
        writer: ResultWriter,
        evaluation: Mapping[str, Any] | None = None,
    ) -> None:
        self.suite, self.folder, self.reader, self.writer = suite, folder, reader, writer
        self.evaluation = dict(evaluation or {})
        self.files: dict[Path, _FileState] = {}
        self.records = 0

    def poll(self) -> None:
        """One look at the folder: evaluate what is new."""
        for path in sorted(self.folder.iterdir()):
            if path.name.startswith(".") or path.name.endswith(".tmp") or not path.is_file():
                continue
            try:
                if path.suffix == ".jsonl":
                    self._read_lines(path)
                elif path.suffix == ".json":
                    self._read_file(path)
            except FileNotFoundError:  # gone between the listing and the reading
                self.files.pop(path, None)

    def _read_file(self, path: Path) -> None:
        state = self.files.setdefault(path, _FileState())
        if state.done:
            return
        stat = path.stat()
        if (stat.st_size, stat.st_mtime_ns) != (state.size, state.mtime):
            state.size, state.mtime = stat.st_size, stat.st_mtime_ns
            return  # still changing (or just seen): read it once it has settled
        state.done = True
        self._evaluate(str(path), lambda: _load_json(path))

    def _read_lines(self, path: Path) -> None:
        state = self.files.setdefault(path, _FileState())
        size = path.stat().st_size
        if size < state.offset:
            state.offset, state.line = 0, 0  # rotated or truncated: read from the start
        if size == state.offset:
            return
        with open_input(path, refusal(str(path)), whole=False) as handle:
            handle.seek(state.offset)
            chunk = handle.read(size - state.offset)
        for raw in _complete_lines(chunk):
            state.offset += len(raw)
            state.line += 1
            if raw.strip():
                read = partial(_parse, raw, state.line == 1)
                self._evaluate(f"{path}:{state.line}", read)

    def _evaluate(self, source: str, read: Callable[[], Any]) -> None:
        self.records += 1
        try:
            records = self.reader(read())
        except Exception as exc:  # one bad record never stops the watch
            names = [case.name for case in self.suite.cases]
            error = load_error_text("the record", source, exc)
            self._write(source, unloadable_cases(error, names, source))
            return
        for number, record in enumerate(records, 1):
            # a document holding several runs: each is labelled file[:line]#N
            label = source if len(records) == 1 else f"{source}#{number}"
            self._write(label, self.suite.evaluate(record, **self.evaluation))

    def _write(self, source: str, results: Iterable[CaseResult]) -> None:
        for result in results:
            data = result.to_dict()
            data["metadata"] = {**data["metadata"], "source": source}
            self.writer.write(data)


def _complete_lines(chunk: bytes) -> Iterator[bytes]:
    start = 0
    while (end := chunk.find(b"\n", start)) != -1:
        yield chunk[start : end + 1]
        start = end + 1


def _parse(raw: bytes, first: bool) -> Any:
    return strict_loads(raw.decode("utf-8-sig" if first else "utf-8"))


def _load_json(path: Path) -> Any:
    return load_json(path)[1]


def run_watch(args: argparse.Namespace, out: IO[str], err: IO[str],
              sleep: Callable[[float], None] = time.sleep) -> int:  # fmt: skip
    """The ``watch`` subcommand (exit 0 after ``--max-polls``, 2 on a bad input, 130 on Ctrl-C)."""
    state: dict[str, Any] = {}
    try:
        return _watch(args, out, err, sleep, state)
    except KeyboardInterrupt:
        watcher, writer = state.get("watcher"), state.get("writer")
        records = watcher.records if watcher is not None else 0
        written = writer.written if writer is not None else 0
        err.write(f"watch stopped: {records} records, {written} results written\n")
        return EXIT_INTERRUPTED
    finally:
        if "writer" in state:
            state["writer"].close()


def _watch(args: argparse.Namespace, out: IO[str], err: IO[str],
           sleep: Callable[[float], None], state: dict[str, Any]) -> int:  # fmt: skip
    folder = Path(args.record_dir)
    if not folder.is_dir():
        err.write(f"error: --record-dir {args.record_dir}: not a folder\n")
        return EXIT_INPUT
    if not args.interval >= 0 or (args.max_polls is not None and args.max_polls < 1):
        err.write("error: --interval must be >= 0 seconds and --max-polls >= 1\n")
        return EXIT_INPUT
    try:
        judge = judge_of(args)
    except ValueError as exc:
        err.write(f"error: {escape_controls(str(exc))}\n")
        return EXIT_INPUT
    try:
        suite = load(args.suite, judge=judge)
    except Exception as exc:
        err.write(f"error: {load_error_text('the suite', args.suite, exc)}\n")
        return EXIT_INPUT
    try:
        reader = record_reader(args.format)
    except RecordError as exc:
        err.write(f"error: --format {args.format}: {exc.problems[0].message}\n")
        return EXIT_INPUT
    try:
        writer = state["writer"] = ResultWriter(args.output, out)
    except OSError as exc:
        err.write(f"error: cannot write --output {args.output}: {exc.strerror or exc}\n")
        return EXIT_INPUT
    evaluation = {"judge": judge, **limit_keywords(args)}
    watcher = state["watcher"] = Watcher(suite, folder, reader, writer, evaluation)
    polls = 0
    while args.max_polls is None or polls < args.max_polls:
        if polls:
            sleep(args.interval)
        try:
            watcher.poll()
        except OSError as exc:  # the output cannot take a whole line: nothing torn is left
            if exc is not writer.failed:
                raise
            err.write(f"error: cannot write --output {args.output}: {exc.strerror or exc}\n")
            err.write(f"watch stopped: {watcher.records} records, {writer.written} results "
                      "written\n")  # fmt: skip
            return EXIT_INPUT
        polls += 1
    return EXIT_OK


__all__ = [
    "OUTPUT_MODE",
    "ResultWriter",
    "Watcher",
    "record_reader",
    "run_watch",
]
