"""What the subcommands share: record inputs and folders, the judge, colour, the progress bar.

>>> import io
>>> use_color(io.StringIO(), environ={})
False

The evaluation options that ``check`` and ``watch`` share (``--timeout``, ``--judge-timeout``,
``--judge``) are added by :mod:`agent_asserts.cli` (the parser); :func:`judge_of` and
:func:`limit_keywords` read them for ``Suite.evaluate``/``Case.evaluate`` (so ``run_case``
enforces them).

What a ``--record`` folder holds besides records: suite files and dangling symlinks.

A suite file kept beside the runs (``runs/suite.json``) is not a record: it is skipped, with a
note on stderr. A symlink whose target is gone is reported as a problem (exit 2), never
skipped silently.

>>> import json, pathlib, tempfile
>>> tmp = pathlib.Path(tempfile.mkdtemp())
>>> _ = (tmp / "suite.json").write_text(json.dumps({"checks": ["succeeded"]}))
>>> _ = (tmp / "run.json").write_text(json.dumps({"events": []}))
>>> (tmp / "gone.json").symlink_to(tmp / "missing.json")
>>> scan = scan_records([tmp / "run.json", tmp / "suite.json"], [str(tmp)])
>>> [p.name for p in scan.records], [p.name for p in scan.suites], [p.name for p in scan.dangling]
(['run.json'], ['suite.json'], ['gone.json'])
"""

from __future__ import annotations

import argparse
import glob
import importlib
import json
import os
import sys
from collections.abc import Iterable, Iterator, Mapping
from pathlib import Path
from typing import IO, Any, Final, NamedTuple, cast

import attrs

from agent_asserts._files import read_bytes
from agent_asserts.batch import SourcedRecord, iter_jsonl
from agent_asserts.record import RecordError, TrialRecord
from agent_asserts.record.adapters import get_format, matching_formats
from agent_asserts.record.reading import folder_files, iter_records, record_suffixes
from agent_asserts.results import CaseResult
from agent_asserts.runner import load_within

# -- record inputs, the judge, colour, progress ----------------------------------------------------

HANDFUL = 5
"""Above this many records, a terminal gets a progress bar."""


CLEAR_LINE = "\r\x1b[2K"
"""Back to the start of the line, and erase it (the progress bar's line)."""


def is_tty(stream: IO[str]) -> bool:
    """True when ``stream`` is an interactive terminal."""
    isatty = getattr(stream, "isatty", None)
    try:
        return bool(isatty()) if callable(isatty) else False
    except (ValueError, OSError):
        return False


def use_color(stream: IO[str], environ: Mapping[str, str] | None = None) -> bool:
    """Colour only on a terminal, and never when ``NO_COLOR`` is set to a non-empty value."""
    env = os.environ if environ is None else environ
    return not env.get("NO_COLOR") and is_tty(stream)


def record_files(spec: str) -> list[Path]:
    """The files a ``--record`` value names: a file, the record files of a directory (not
    recursive; what ``iter_records`` reads of it: ``folder_files``), or a glob (``**``
    recursive); sorted. Empty when nothing matches.

    >>> record_files("/nonexistent/*.json")
    []
    """
    path = Path(spec)
    if path.is_dir():
        return folder_files(path)
    if path.is_file():
        return [path]
    return [Path(p) for p in sorted(glob.glob(spec, recursive=True)) if Path(p).is_file()]


def format_problem(name: str) -> str | None:
    """Why a trace-format name given on the command line is refused (no registered format of
    that name), or None for ``auto`` and every registered name.

    >>> format_problem("auto"), format_problem("otel")
    (None, None)
    >>> format_problem("otle")  # doctest: +ELLIPSIS
    "unknown trace format 'otle' (did you mean 'otel'?); known formats: native, mantle, ces, ..."
    """
    if name == "auto":
        return None
    try:
        get_format(name)
    except RecordError as exc:
        return exc.problems[0].message
    return None


def iter_record_inputs(
    files: list[Path], format: str = "auto", *, timeout: float | None = None
) -> Iterator[SourcedRecord]:
    """One input per run, read lazily in ``format`` (``"auto"``: detected): one per non-blank
    line of a ``.jsonl`` file (``file:line``; a file of events, such as Mantle's, is one run),
    and one per run of any other file (``file#N`` when it holds several). What cannot be read
    (a bad line, a file that cannot be opened or holds no run) comes as an input whose
    ``error`` says why. ``timeout`` bounds the reading of each run of a whole file (the case
    time limit: a file past it comes as an input whose error says so, and the file is left)."""

    for path in files:
        if path.suffix == ".jsonl" and not _one_run_of_lines(path, format):
            yield from _jsonl_inputs(path, format)
        else:
            yield from _file_inputs(path, format, timeout)


def _one_run_of_lines(path: Path, format: str) -> bool:
    """Whether a JSON Lines file is one run of events (a format reading files itself)."""
    if format != "auto":
        return get_format(format).read_records is not None
    try:
        first = next(iter_jsonl(path), None)
    except OSError:
        return False
    found = matching_formats(first) if isinstance(first, dict | list) else ()
    return len(found) == 1 and get_format(found[0]).read_records is not None


def _file_inputs(path: Path, format: str, timeout: float | None = None) -> Iterator[SourcedRecord]:
    name = str(path)
    records = iter_records(path, format)

    def pull() -> TrialRecord | None:  # the next run, read inside the case time limit
        return load_within(lambda: next(records, None), timeout)

    try:
        first = pull()
        if first is None:
            yield SourcedRecord(name, error="no run was read (the file holds none)")
            return
        second = pull()
    except Exception as exc:  # reported as the file's load error
        yield SourcedRecord(name, error=str(exc) or type(exc).__name__)
        return
    if second is None:
        yield SourcedRecord(name, first)
        return
    yield SourcedRecord(f"{name}#1", first)
    yield SourcedRecord(f"{name}#2", second)
    number = 3
    try:
        while (record := pull()) is not None:
            yield SourcedRecord(f"{name}#{number}", record)
            number += 1
    except Exception as exc:
        yield SourcedRecord(f"{name}#{number}", error=str(exc) or type(exc).__name__)


def _jsonl_inputs(path: Path, format: str = "auto") -> Iterator[SourcedRecord]:
    read = 0
    try:
        for item in iter_jsonl(path, sources=True):
            read += 1
            yield attrs.evolve(cast("SourcedRecord", item), format=format)
    except OSError as exc:
        yield SourcedRecord(str(path), error=exc.strerror or str(exc))
        return
    if not read:
        yield SourcedRecord(str(path), error="no records were read (the file is empty)")


def import_judge(spec: str) -> Any:
    """The callable named by ``MODULE:CALLABLE`` (the working directory is importable).

    Raises:
        ValueError: ``spec`` is malformed, or names something that is not callable.
        ImportError: The module cannot be imported, or raised an exception while importing
            (its type and message are in the error's).

    >>> import_judge("os.path:basename")("/a/b")
    'b'
    >>> import_judge("os:sep")
    Traceback (most recent call last):
    ...
    ValueError: 'sep' of os is not callable (got str)
    """
    module_name, sep, attribute = spec.partition(":")
    if not sep or not module_name or not attribute:
        raise ValueError("must look like MODULE:CALLABLE")
    if os.getcwd() not in sys.path:
        sys.path.insert(0, os.getcwd())
    try:
        target: Any = importlib.import_module(module_name)
    except ImportError:
        raise
    except Exception as exc:  # the module itself is broken: its error, not a crash
        raise ImportError(
            f"importing {module_name} raised {type(exc).__name__}: {exc}", name=module_name
        ) from exc
    for part in attribute.split("."):
        try:
            target = getattr(target, part)
        except AttributeError:
            raise ValueError(f"{module_name} has no attribute {attribute!r}") from None
    if not callable(target):
        raise ValueError(
            f"{attribute!r} of {module_name} is not callable (got {type(target).__name__})"
        )
    return target


class Progress:
    """A one-line progress bar on ``stream`` (stderr), shown only on a terminal, outside CI,
    and once more than :data:`HANDFUL` records are being checked."""

    def __init__(
        self, total: int | None, stream: IO[str], environ: Mapping[str, str] | None = None
    ):
        env = os.environ if environ is None else environ
        self.total = total
        self.stream = stream
        self.done = 0
        self.enabled = is_tty(stream) and not env.get("CI") and (total is None or total > HANDFUL)
        self.shown = False
        self._bar = ""

    def advance(self) -> None:
        """Count one more record checked."""
        self.done += 1
        if not self.enabled or (self.total is None and self.done <= HANDFUL):
            return
        if self.total:
            filled = int(30 * self.done / self.total)
            bar = "#" * filled + "." * (30 - filled)
            self._bar = f"[{bar}] {self.done}/{self.total} records"
        else:
            self._bar = f"{self.done} records checked"
        self.stream.write(f"\r{self._bar}")
        self.stream.flush()
        self.shown = True

    def write(self, text: str) -> None:
        """Write ``text`` (whole lines) on a line of its own: the bar's line is cleared first
        and the bar drawn again below it (so a message is never glued onto the bar).
        """
        if not self.shown:
            self.stream.write(text)
            return
        self.stream.write(f"{CLEAR_LINE}{text}{self._bar}")
        self.stream.flush()

    def close(self) -> None:
        """Clear the bar."""
        if self.shown:
            self.stream.write(CLEAR_LINE)
            self.stream.flush()


# -- the evaluation options, read ------------------------------------------------------------------


def judge_of(args: argparse.Namespace) -> Any:
    """The judge ``--judge`` names (None without it).

    Raises:
        ValueError: it cannot be imported (``--judge SPEC: reason``, whatever the module raised).

    >>> judge_of(argparse.Namespace(judge=None)) is None
    True
    >>> judge_of(argparse.Namespace(judge="os:sep"))
    Traceback (most recent call last):
    ...
    ValueError: --judge os:sep: 'sep' of os is not callable (got str)
    """
    spec = getattr(args, "judge", None)
    if not spec:
        return None
    try:
        return import_judge(spec)
    except Exception as exc:  # whatever the module raised: reported, never a traceback
        raise ValueError(f"--judge {spec}: {exc}") from exc


def limit_keywords(args: argparse.Namespace) -> dict[str, Any]:
    """The ``timeout``/``judge_timeout`` keywords given on the command line.

    >>> limit_keywords(argparse.Namespace(timeout=2.0, judge_timeout=None))
    {'timeout': 2.0, 'judge_timeout': None}
    """
    return {
        "timeout": getattr(args, "timeout", None),
        "judge_timeout": getattr(args, "judge_timeout", None),
    }


# -- what a --record folder holds ------------------------------------------------------------------

SUITE_KEYS: Final = frozenset(
    {"checks", "cases", "scenario", "goals", "assertions", "evals", "tool_expectations"}
)
"""Top-level keys of a suite document (native, Mantle, cxas); a record has ``events``."""


SNIFF_LIMIT: Final = 1_000_000
"""Files larger than this (bytes) are taken for records without reading them."""


class RecordScan(NamedTuple):
    """The record files, the suite files skipped and the dangling symlinks found."""

    records: list[Path]
    suites: list[Path]
    dangling: list[Path]


def is_suite_file(path: Path, suite_paths: Iterable[str] = ()) -> bool:
    """Whether ``path`` is one of ``suite_paths`` or a JSON suite document (a mapping with a
    suite's keys and no ``events``).

    >>> is_suite_file(Path("/nonexistent.json"))
    False
    """
    return _is_suite_file(path, _file_ids(suite_paths))


def _file_ids(paths: Iterable[str]) -> set[tuple[int, int]]:
    """The (device, inode) of each of ``paths`` that exists (symbolic links followed): what
    ``Path.samefile`` compares, taken once for a whole folder of records."""
    found = set()
    for name in paths:
        try:
            info = os.stat(name)
        except (OSError, ValueError):
            continue
        found.add((info.st_dev, info.st_ino))
    return found


def _is_suite_file(path: Path, suite_ids: set[tuple[int, int]]) -> bool:
    try:
        info = os.stat(path)
        if (info.st_dev, info.st_ino) in suite_ids:
            return True
        if path.suffix != ".json" or info.st_size > SNIFF_LIMIT:
            return False
        raw = read_bytes(path, ValueError)
        if not _may_name_suite_keys(raw):
            return False
        data = json.loads(raw)
    except (OSError, ValueError):
        return False
    return isinstance(data, dict) and "events" not in data and bool(SUITE_KEYS & data.keys())


_QUOTED_SUITE_KEYS: Final = tuple(f'"{key}"'.encode() for key in sorted(SUITE_KEYS))


def _may_name_suite_keys(raw: bytes) -> bool:
    """False when the JSON text ``raw`` cannot hold a suite key, so that a folder's record
    files are not all parsed twice (here, then by their reader): in UTF-8 (what a record file
    almost always is) a key is its quoted name unless it is written with a ``\\u`` escape.
    Any other encoding, or an escape, says True (the file is then parsed).

    >>> _may_name_suite_keys(b'{"events": []}'), _may_name_suite_keys(b'{"checks": []}')
    (False, True)
    >>> _may_name_suite_keys(b'{"\\\\u0063hecks": []}')
    True
    >>> _may_name_suite_keys('{"a": 1}'.encode("utf-16"))
    True
    """
    if b"\\u" in raw or json.detect_encoding(raw) not in ("utf-8", "utf-8-sig"):
        return True
    return any(key in raw for key in _QUOTED_SUITE_KEYS)


def as_suite_input(case: CaseResult) -> CaseResult:
    """The failed case of an unloadable suite, marked so that reports label its source
    ``suite:`` (``metadata["input"] == "suite"``) rather than ``record:``.

    >>> as_suite_input(CaseResult("s.yml", "failed", metadata={"source": "s.yml"})).metadata
    {'source': 's.yml', 'input': 'suite'}
    """
    return attrs.evolve(case, metadata={**case.metadata, "input": "suite"})


def scan_records(
    files: list[Path], folders: Iterable[str], suite_paths: Iterable[str] = ()
) -> RecordScan:
    """Split ``files`` into records and suite files, and list the dangling symlinks of the
    ``--record`` values that are folders."""
    suite_ids = _file_ids(suite_paths)
    records: list[Path] = []
    suites: list[Path] = []
    for path in files:
        (suites if _is_suite_file(path, suite_ids) else records).append(path)
    dangling: list[Path] = []
    suffixes = record_suffixes()
    for folder in folders:
        base = Path(folder)
        if base.is_dir():
            with os.scandir(base) as entries:  # a link is told by the entry, with no call
                links = [base / e.name for e in entries if e.is_symlink()]
            dangling.extend(sorted(p for p in links if p.suffix in suffixes and not p.exists()))
    return RecordScan(records, suites, dangling)


__all__ = [
    "CLEAR_LINE",
    "HANDFUL",
    "SUITE_KEYS",
    "Progress",
    "RecordScan",
    "as_suite_input",
    "format_problem",
    "import_judge",
    "is_suite_file",
    "is_tty",
    "iter_record_inputs",
    "judge_of",
    "limit_keywords",
    "record_files",
    "scan_records",
    "use_color",
]
