"""Hard time limits: stop a running case at its deadline, wherever it is.

:func:`time_limit` arms a limit around a block of code; past it, :class:`TimeLimitExceeded`
is raised *inside* the block, in the middle of whatever was running:

- in the main thread (POSIX), by a ``SIGALRM`` interval timer. This interrupts Python code
  (custom predicates, judges written in Python, ``time.sleep``, blocking socket reads, which
  are retried after a signal and so give the handler its turn) and the standard library's
  ``re`` engine, which checks for signals while it backtracks;
- in any other thread (or when another interval timer is already armed, e.g. by
  pytest-timeout), by a watchdog thread that raises the exception asynchronously in the
  evaluating thread: this interrupts Python code between two bytecodes, not a C call.
  Pattern matching then relies on the ``regex`` engine (the ``regex`` extra), which matches
  without holding the GIL and is waited for at most the time left (see
  :func:`agent_asserts.matching.scalar.search` and :func:`remaining`).

**A swallowed time-out fires again.** Python ignores (prints) an exception raised in a
garbage-collector callback or a ``__del__`` method; while the block is still running after its
limit, the limit fires again every :data:`REFIRE` seconds, so such a place cannot lose it. A
limit that fires while a garbage-collector callback (``gc.callbacks``) runs is not raised there
at all: it is retried every 10 ms until the callback has returned (:func:`collecting`), so an
allocation-heavy block cannot have its time-out swallowed again and again.

**No import is interrupted.** A time limit that fires while its thread is importing a module
(inside ``importlib``'s own code, which holds the module's import lock) would leave that lock
held and every later import of the module waiting forever. So what the time-limit paths need
is imported before a limit is armed (:func:`regex_engine`, ``ctypes``), and a limit that fires
during an import waits until the import is over (it is retried every 10 ms): an import delays
a time-out, it never breaks one.

A C call that never returns to Python and ignores signals cannot be interrupted in-process;
:func:`agent_asserts.evaluate_many` with a process pool and a ``timeout`` kills such a worker.

:class:`TimeLimitExceeded` derives from ``BaseException`` so that the ``except Exception``
of a check (which turns a raising predicate into ``evaluator_error``) cannot swallow it.

>>> import time
>>> try:
...     with time_limit(0.05):
...         time.sleep(5)
... except TimeLimitExceeded as exc:
...     print(exc)
time limit of 0.05s passed
"""

from __future__ import annotations

import functools
import gc
import signal
import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from types import FrameType
from typing import Any, Final

DEFAULT_CASE_TIMEOUT: Final = 60.0
"""The per-case time limit where untrusted input is evaluated unattended (the CLI's
``--timeout``, the pytest ``agent_asserts_timeout`` option, the live processors), in seconds."""

# (deadline on the monotonic clock, the limit in seconds, armed by a signal?) of the
# innermost armed limit
_DEADLINE: ContextVar[tuple[float, float, bool] | None] = ContextVar(
    "agent_asserts_deadline", default=None
)


class TimeLimitExceeded(BaseException):
    """A case ran past its hard time limit (``limit`` seconds)."""

    def __init__(self, limit: float) -> None:
        self.limit = limit
        super().__init__(f"time limit of {format_seconds(limit)} passed")


def format_seconds(seconds: float) -> str:
    """``1.0`` → ``'1s'``, ``0.25`` → ``'0.25s'``.

    >>> format_seconds(60.0), format_seconds(0.25)
    ('60s', '0.25s')
    """
    return f"{seconds:g}s"


def check_limit(value: Any, name: str = "timeout") -> float | None:
    """Validate a time limit argument: None (no limit) or a number of seconds > 0.

    >>> check_limit(2), check_limit(None)
    (2.0, None)
    >>> check_limit(0)
    Traceback (most recent call last):
    ...
    ValueError: 'timeout' must be a number of seconds > 0 or None (got 0)
    """
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int | float) or not value > 0:
        raise ValueError(f"{name!r} must be a number of seconds > 0 or None (got {value!r})")
    return float(value)


def remaining() -> float | None:
    """Seconds left before the innermost armed limit of this context (None: no limit).

    >>> remaining() is None
    True
    >>> with time_limit(30):
    ...     0 < remaining() <= 30
    True
    """
    armed = _DEADLINE.get()
    return None if armed is None else max(armed[0] - time.monotonic(), 0.0)


def re_interruptible() -> bool:
    """Whether a pattern may run on ``re`` directly now: no limit is armed, or the innermost
    one interrupts by a signal (which stops ``re`` itself). Under a limit armed in another
    thread, a search needs the time left (:func:`remaining`) instead.

    >>> re_interruptible()
    True
    """
    armed = _DEADLINE.get()
    return armed is None or armed[2]


def expired() -> TimeLimitExceeded:
    """The exception for the innermost armed limit (raised by engines that time out).

    >>> with time_limit(3):
    ...     str(expired())
    'time limit of 3s passed'
    """
    armed = _DEADLINE.get()
    return TimeLimitExceeded(0.0 if armed is None else armed[1])


def _main_thread_timer_free() -> bool:
    if not hasattr(signal, "setitimer"):
        return False
    if threading.current_thread() is not threading.main_thread():
        return False
    return signal.getitimer(signal.ITIMER_REAL) == (0.0, 0.0)


RETRY: Final = 0.01
"""Seconds after which a limit that fired during an import or a garbage-collector callback
fires again."""

_IMPORT_MACHINERY: Final = ("<frozen importlib._bootstrap", "importlib/_bootstrap")


def importing(frame: FrameType | None) -> bool:
    """Whether ``frame`` or a frame that called it runs the import machinery (``importlib``'s
    bootstrap code, which holds a module's import lock): no time-out is raised there.

    >>> importing(sys._getframe())
    False
    """
    while frame is not None:
        if frame.f_code.co_filename.startswith(_IMPORT_MACHINERY):
            return True
        frame = frame.f_back
    return False


def _code_of(callback: Any) -> Any:
    return getattr(getattr(callback, "__func__", callback), "__code__", None)


def collecting(frame: FrameType | None) -> bool:
    """Whether ``frame`` or a frame that called it runs a garbage-collector callback
    (``gc.callbacks``, e.g. Hypothesis's), where Python ignores (prints) an exception: no
    time-out is raised there.

    >>> collecting(sys._getframe())
    False
    """
    codes = {_code_of(callback) for callback in gc.callbacks}
    codes.discard(None)
    while codes and frame is not None:
        if frame.f_code in codes:
            return True
        frame = frame.f_back
    return False


def _not_here(frame: FrameType | None) -> bool:
    """Whether a time-out raised in ``frame`` would break an import or be swallowed."""
    return importing(frame) or collecting(frame)


@functools.cache
def regex_engine() -> Any:
    """The ``regex`` module (the ``regex`` extra), or None when it is not installed.

    Imported when a time limit is armed (never under one: see the module's docs), so that
    pattern matching under a limit finds it already imported.

    >>> engine = regex_engine()
    >>> engine is None or hasattr(engine, "compile")
    True
    """
    try:
        import regex
    except ImportError:
        return None
    return regex


@functools.cache
def _prepared() -> bool:
    """Import what the time-limit paths use, once, before the first limit is armed."""
    import ctypes  # the watchdog's asynchronous exception

    regex_engine()
    return ctypes.pythonapi is not None


REFIRE: Final = 0.25
"""Seconds after which a limit fires again while its block is still running: the exception
may have been swallowed where Python ignores exceptions (a garbage-collector callback, a
``__del__`` method), which would otherwise lose the time-out."""


def _settle(cleanup: Callable[[], None]) -> None:
    """Run a limit's ``cleanup``, again if a late time-out lands in it (it marks the limit done
    first, so no other one follows)."""
    while True:
        try:
            cleanup()
            return
        except TimeLimitExceeded:
            continue


@contextmanager
def _signal_limit(limit: float) -> Iterator[None]:
    state = {"done": False}

    def on_alarm(signum: int, frame: FrameType | None) -> None:
        if state["done"]:
            return
        if _not_here(frame):  # an import lock left held, or a swallowed exception
            signal.setitimer(signal.ITIMER_REAL, RETRY)
            return
        signal.setitimer(signal.ITIMER_REAL, REFIRE)  # again, should this one be swallowed
        raise TimeLimitExceeded(limit)

    def disarm() -> None:
        state["done"] = True
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)

    previous = signal.signal(signal.SIGALRM, on_alarm)
    signal.setitimer(signal.ITIMER_REAL, limit)
    try:
        yield
    finally:
        _settle(disarm)


def _raise_in(thread_id: int, exc: type[BaseException] | None) -> None:
    import ctypes  # imported by _prepared() before any limit was armed: no import here

    target = ctypes.c_ulong(thread_id)
    obj = ctypes.py_object(exc) if exc is not None else ctypes.c_void_p(0)
    ctypes.pythonapi.PyThreadState_SetAsyncExc(target, obj)


@contextmanager
def _watchdog_limit(limit: float) -> Iterator[None]:
    # An asynchronous exception is raised by class: a subclass carries the limit.
    expired = type("TimeLimitExceeded", (TimeLimitExceeded,), {"__init__": _fixed(limit)})
    ident = threading.get_ident()
    lock = threading.Lock()
    state: dict[str, Any] = {"done": False, "fired": False, "timer": None}

    def start(after: float) -> None:
        timer = threading.Timer(after, fire)
        timer.daemon = True
        state["timer"] = timer
        timer.start()

    def fire() -> None:
        with lock:
            if state["done"]:
                return
            if _not_here(sys._current_frames().get(ident)):
                start(RETRY)  # never inside an import or a collector callback: try again
                return
            state["fired"] = True
            _raise_in(ident, expired)
            start(REFIRE)  # again, should this one be swallowed

    def disarm() -> None:
        with lock:
            state["done"] = True
            state["timer"].cancel()
            if state["fired"]:
                _raise_in(ident, None)  # not delivered yet: withdraw it

    with lock:
        start(limit)
    try:
        yield
    finally:
        _settle(disarm)


def _fixed(limit: float) -> Any:
    def init(self: TimeLimitExceeded, *args: Any) -> None:
        TimeLimitExceeded.__init__(self, limit)

    return init


@contextmanager
def time_limit(limit: float | None) -> Iterator[None]:
    """Raise :class:`TimeLimitExceeded` in this block once ``limit`` seconds have passed.

    ``None`` arms nothing. Nested limits: the inner one is armed only when it ends sooner.

    >>> with time_limit(None):
    ...     remaining() is None
    True
    """
    if limit is None:
        yield
        return
    _prepared()
    deadline = time.monotonic() + limit
    outer = _DEADLINE.get()
    if outer is not None and outer[0] <= deadline:
        yield
        return
    by_signal = _main_thread_timer_free()
    token = _DEADLINE.set((deadline, limit, by_signal))
    try:
        arm = _signal_limit if by_signal else _watchdog_limit
        with arm(limit):
            yield
    finally:
        _DEADLINE.reset(token)


__all__ = [
    "DEFAULT_CASE_TIMEOUT",
    "REFIRE",
    "RETRY",
    "TimeLimitExceeded",
    "check_limit",
    "expired",
    "format_seconds",
    "importing",
    "re_interruptible",
    "regex_engine",
    "remaining",
    "time_limit",
]
