"""Files: reading input files within limits, and writing output files atomically.

Reading input files safely: only regular files, and at most a configurable number of bytes.

A suite or a record path may name anything: a device (``/dev/zero`` never ends), a FIFO
(opening it blocks until a writer comes), a dangling symbolic link. :func:`not_regular` names
what such a path is; :func:`read_bytes` opens without blocking, checks the open file itself
(``fstat``, so the file checked is the file read) and reads at most :func:`max_file_bytes`.
:func:`open_input` is the one way input files are opened (:func:`read_bytes` and the readers
that read line by line use it): the same checks, and a read that would block (a "regular"
kernel file such as ``/proc/kmsg``, which waits for new messages) raises the reader's error
``not a regular file (reading it would block)`` instead of waiting forever.

The size limit is :data:`DEFAULT_MAX_FILE_BYTES` (1 GiB), changed with the environment
variable :data:`MAX_FILE_BYTES_ENV` (a number of bytes; ``0`` for no limit).

>>> import tempfile, pathlib
>>> file = pathlib.Path(tempfile.mkdtemp()) / "a.json"
>>> _ = file.write_text("{}")
>>> read_bytes(file, ValueError)
b'{}'
>>> not_regular("/dev/null")
'not a regular file (a character device)'

Atomic file writes: a reader sees the old file or the whole new one, never a torn file.

:func:`write_atomic` writes the text to a temporary file beside the target (same directory,
so same file system), flushes and ``fsync``\\ s it, then ``os.replace``\\ s the target with it.
When anything fails (a full disk, ``ulimit -f``, an interrupt), the temporary file is removed
and the target keeps its previous content. Every file the library writes goes through it:
reports (``write_report``, ``BatchResult.write``, ``agent-asserts check --output``, the
pytest session report) and the native JSON Schema. ``agent-asserts watch`` appends whole JSON
lines with one ``write`` each instead (an append-only log); ``convert`` prints to stdout.

>>> import pathlib, tempfile
>>> with tempfile.TemporaryDirectory() as d:
...     target = pathlib.Path(d, "report.json")
...     _ = write_atomic(target, '{"ok": true}')
...     target.read_text(), sorted(p.name for p in pathlib.Path(d).iterdir())
('{"ok": true}', ['report.json'])
"""

from __future__ import annotations

import contextlib
import errno
import io
import os
import stat
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Any, BinaryIO, Final

# -- reading input files ---------------------------------------------------------------------------

MAX_FILE_BYTES_ENV: Final = "AGENT_ASSERTS_MAX_FILE_BYTES"
"""The environment variable that sets the size limit of suite and record files (bytes)."""


DEFAULT_MAX_FILE_BYTES: Final = 1 << 30
"""The size limit of a suite or record file when :data:`MAX_FILE_BYTES_ENV` is not set."""


_KINDS: Final = (
    (stat.S_ISDIR, "a directory"),
    (stat.S_ISCHR, "a character device"),
    (stat.S_ISBLK, "a block device"),
    (stat.S_ISFIFO, "a FIFO"),
    (stat.S_ISSOCK, "a socket"),
)


def max_file_bytes() -> int:
    """The size limit in bytes (``0``: none), from :data:`MAX_FILE_BYTES_ENV`.

    >>> max_file_bytes() == DEFAULT_MAX_FILE_BYTES or MAX_FILE_BYTES_ENV in os.environ
    True
    """
    return env_limit(MAX_FILE_BYTES_ENV, DEFAULT_MAX_FILE_BYTES)


def env_limit(name: str, default: int) -> int:
    """A non-negative limit from the environment variable ``name``; ``default`` when it is
    unset or not a whole number.

    >>> env_limit("AGENT_ASSERTS_NO_SUCH_LIMIT", 7)
    7
    """
    text = os.environ.get(name, "").strip()
    try:
        return max(int(text), 0) if text else default
    except ValueError:
        return default


def _mode_problem(mode: int, size: int) -> str | None:
    if not stat.S_ISREG(mode):
        kind = next((name for test, name in _KINDS if test(mode)), "a special file")
        return f"not a regular file ({kind})"
    limit = max_file_bytes()
    if limit and size > limit:
        return (
            f"the file is {size} bytes, over the limit of {limit} bytes "
            f"(set {MAX_FILE_BYTES_ENV} to change it)"
        )
    return None


def not_regular(path: str | os.PathLike[str], *, whole: bool = True) -> str | None:
    """Why ``path`` cannot be read as an input file, or None (a missing file is None too: opening
    it raises ``FileNotFoundError`` as before). ``whole=False``: the file is streamed, so its
    size is no reason.

    >>> not_regular("/no/such/file") is None
    True
    """
    try:
        info = os.stat(path)
    except FileNotFoundError:
        if os.path.lexists(path):
            return "a dangling symbolic link (its target does not exist)"
        return None
    except OSError:
        return None
    return _mode_problem(info.st_mode, info.st_size if whole else 0)


BLOCKS: Final = "not a regular file (reading it would block)"
"""Why a file whose read would wait (``/proc/kmsg``) is refused."""


class _NonBlockingInput(io.RawIOBase):
    """A file descriptor opened with ``O_NONBLOCK``, read without ever waiting: a read that
    would wait raises ``fail(BLOCKS)``."""

    def __init__(self, fd: int, fail: Callable[[str], Exception]) -> None:
        super().__init__()
        self._fd = fd
        self._fail = fail

    def readable(self) -> bool:
        return True

    def fileno(self) -> int:
        return self._fd

    def seekable(self) -> bool:
        return True

    def seek(self, offset: int, whence: int = os.SEEK_SET) -> int:
        return os.lseek(self._fd, offset, whence)

    def tell(self) -> int:
        return os.lseek(self._fd, 0, os.SEEK_CUR)

    def readinto(self, buffer: Any) -> int:
        try:
            if hasattr(os, "readv"):  # POSIX: straight into the buffer, no copy
                return os.readv(self._fd, [buffer])
            view = memoryview(buffer).cast("B")
            data = os.read(self._fd, len(view))
        except BlockingIOError:
            raise self._fail(BLOCKS) from None
        view[: len(data)] = data
        return len(data)

    def close(self) -> None:
        if not self.closed:
            try:
                os.close(self._fd)
            finally:
                super().close()


def open_input(
    path: str | os.PathLike[str], fail: Callable[[str], Exception], *, whole: bool = True
) -> BinaryIO:
    """``path`` opened for reading (binary, buffered), when it is a regular file within the size
    limit; otherwise ``fail(reason)`` is raised. The file is opened with ``O_NONBLOCK`` (a FIFO
    never blocks the open), checked on the open handle (``fstat``: the file checked is the file
    read), and every read that would wait raises ``fail(BLOCKS)``. ``whole=False`` is for a
    reader that streams the file (JSON Lines, a large JSON document read piece by piece): its
    size is then no reason to refuse it.

    Raises:
        OSError: The file is missing or cannot be opened.

    >>> with open_input("/proc/self/status", ValueError) as handle:
    ...     handle.readline().startswith(b"Name:")
    True
    >>> open_input("/dev/zero", ValueError)
    Traceback (most recent call last):
    ...
    ValueError: not a regular file (a character device)
    """
    problem = not_regular(path, whole=whole)
    if problem is not None:
        raise fail(problem)
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    try:
        info = os.fstat(fd)
        problem = _mode_problem(info.st_mode, info.st_size if whole else 0)
        if problem is not None:
            raise fail(problem)
        raw = _NonBlockingInput(fd, fail)
    except BaseException:
        os.close(fd)
        raise
    return io.BufferedReader(raw)


def open_text_input(
    path: str | os.PathLike[str], fail: Callable[[str], Exception], *, whole: bool = True
) -> io.TextIOWrapper:
    """:func:`open_input` as UTF-8 text (a byte-order mark skipped).

    >>> with open_text_input("/proc/self/status", ValueError) as handle:
    ...     handle.readline().startswith("Name:")
    True
    """
    return io.TextIOWrapper(open_input(path, fail, whole=whole), encoding="utf-8-sig")


def read_bytes(path: str | os.PathLike[str], fail: Callable[[str], Exception]) -> bytes:
    """The bytes of a regular file; otherwise the exception ``fail(reason)`` is raised (opened
    with :func:`open_input`).

    Raises:
        OSError: The file is missing or cannot be opened.
    """
    with open_input(path, fail) as handle:
        size = os.fstat(handle.fileno()).st_size
        limit = max_file_bytes()
        # read the size the file has (a read of the limit would allocate the limit for every
        # small file), then on to the limit only if it grew meanwhile
        data = handle.read(size + 1)
        if len(data) > size:
            data += handle.read(limit + 1 - len(data)) if limit else handle.read()
        if limit and len(data) > limit:  # the file grew while it was read
            raise fail(f"the file is over the limit of {limit} bytes")
        return data


def outside(path: str | os.PathLike[str], roots: Iterable[str | os.PathLike[str]]) -> bool:
    """Whether ``path``, symbolic links followed, lies outside every folder of ``roots`` (the
    folders a suite's ``record:`` may name files in).

    >>> outside("suites/runs/ok.json", ["suites"]), outside("suites/../../etc/passwd", ["suites"])
    (False, True)
    >>> outside("/etc/passwd", ["suites", "/etc"])
    False
    """
    real = Path(path).resolve()
    return not any(real.is_relative_to(Path(root).resolve()) for root in roots)


def outside_text(
    source: str, roots: Sequence[str | os.PathLike[str]], option: str = "--allow-records-from"
) -> str:
    """Why a suite's ``record:`` file outside ``roots`` (the suite's folder first, then those
    the user allowed with ``option``) is not read.

    >>> print(outside_text("../key.json", ["suites"]))  # doctest: +NORMALIZE_WHITESPACE
    the record ../key.json is outside the suite's folder (suites): give --allow-records-from DIR
    to read records from another folder
    """
    allowed = "".join(f" and {os.fspath(root)}" for root in roots[1:])
    return (
        f"the record {source} is outside the suite's folder ({os.fspath(roots[0])}){allowed}: "
        f"give {option} DIR to read records from another folder"
    )


# -- writing files atomically ----------------------------------------------------------------------


def write_atomic(path: str | os.PathLike[str], text: str, *, encoding: str = "utf-8") -> Path:
    """Replace ``path`` with ``text`` atomically; return the path.

    The new file gets the permissions a plain ``open(path, "w")`` would give it (or keeps
    those of the file it replaces).

    Raises:
        OSError: The file cannot be written; the target is then untouched.
    """
    target = Path(path)
    if target.is_dir():  # os.replace would name the temporary file; name the target
        raise IsADirectoryError(errno.EISDIR, os.strerror(errno.EISDIR), str(target))
    data = text.encode(encoding)
    import tempfile  # deferred: tempfile brings shutil, random, bz2, lzma; only writing needs it

    handle, temp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    try:
        with os.fdopen(handle, "wb") as out:
            out.write(data)
            out.flush()
            os.fsync(out.fileno())
        os.chmod(temp, _mode_for(target))
        os.replace(temp, target)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temp)
        raise
    return target


def _mode_for(target: Path) -> int:
    try:
        return target.stat().st_mode & 0o7777
    except OSError:
        umask = os.umask(0)
        os.umask(umask)
        return 0o666 & ~umask


__all__ = [
    "BLOCKS",
    "DEFAULT_MAX_FILE_BYTES",
    "MAX_FILE_BYTES_ENV",
    "env_limit",
    "max_file_bytes",
    "not_regular",
    "open_input",
    "open_text_input",
    "outside",
    "outside_text",
    "read_bytes",
    "write_atomic",
]
