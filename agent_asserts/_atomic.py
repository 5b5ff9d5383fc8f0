"""Atomic file writes: a reader sees the old file or the whole new one, never a torn file.

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
import os
from pathlib import Path


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


__all__ = ["write_atomic"]
