"""Helpers of the command line: record inputs, the judge option, colour, the progress bar.

>>> import io
>>> use_color(io.StringIO(), environ={})
False
"""

from __future__ import annotations

import functools
import glob
import importlib
import os
import sys
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path
from typing import IO, Any

import attrs

HANDFUL = 5
"""Above this many records, a terminal gets a progress bar."""
RECORD_SUFFIXES = (".json", ".jsonl")


@attrs.frozen
class RecordInput:
    """One record to check: where it comes from and how to read it (lazily)."""

    source: str
    read: Callable[[], Any]


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
    """The files a ``--record`` value names: a file, the ``.json``/``.jsonl`` files of a
    directory (not recursive), or a glob (``**`` recursive); sorted. Empty when nothing
    matches.

    >>> record_files("/nonexistent/*.json")
    []
    """
    path = Path(spec)
    if path.is_dir():
        return sorted(p for p in path.iterdir() if p.is_file() and p.suffix in RECORD_SUFFIXES)
    if path.is_file():
        return [path]
    return [Path(p) for p in sorted(glob.glob(spec, recursive=True)) if Path(p).is_file()]


def iter_record_inputs(files: list[Path]) -> Iterator[RecordInput]:
    """One input per record file, and one per line of a ``.jsonl`` file (``file:line``)."""
    from agent_asserts.batch import load_record

    for path in files:
        if path.suffix != ".jsonl":
            yield RecordInput(str(path), functools.partial(load_record, path))
            continue
        with path.open(encoding="utf-8") as handle:
            for number, line in enumerate(handle, 1):
                if line.strip():
                    yield RecordInput(f"{path}:{number}", functools.partial(_from_line, line))


def _from_line(text: str) -> Any:
    import json

    from agent_asserts.batch import load_record

    return load_record(json.loads(text))


def import_judge(spec: str) -> Any:
    """The callable named by ``MODULE:CALLABLE`` (the working directory is importable).

    Raises:
        ValueError: ``spec`` is malformed, or names something that is not callable.
        ImportError: The module cannot be imported.

    >>> import_judge("os.path:basename")("/a/b")
    'b'
    """
    module_name, sep, attribute = spec.partition(":")
    if not sep or not module_name or not attribute:
        raise ValueError(f"--judge must look like MODULE:CALLABLE (got {spec!r})")
    if os.getcwd() not in sys.path:
        sys.path.insert(0, os.getcwd())
    target: Any = importlib.import_module(module_name)
    for part in attribute.split("."):
        try:
            target = getattr(target, part)
        except AttributeError:
            raise ValueError(f"--judge: {module_name!r} has no attribute {attribute!r}") from None
    if not callable(target):
        raise ValueError(f"--judge: {spec!r} is not callable")
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

    def advance(self) -> None:
        """Count one more record checked."""
        self.done += 1
        if not self.enabled or (self.total is None and self.done <= HANDFUL):
            return
        if self.total:
            filled = int(30 * self.done / self.total)
            bar = "#" * filled + "." * (30 - filled)
            text = f"\r[{bar}] {self.done}/{self.total} records"
        else:
            text = f"\r{self.done} records checked"
        self.stream.write(text)
        self.stream.flush()
        self.shown = True

    def close(self) -> None:
        """Clear the bar."""
        if self.shown:
            self.stream.write("\r\x1b[2K")
            self.stream.flush()


__all__ = [
    "HANDFUL",
    "Progress",
    "RecordInput",
    "import_judge",
    "is_tty",
    "iter_record_inputs",
    "record_files",
    "use_color",
]
