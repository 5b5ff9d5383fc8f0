"""The one registry behind every extension point.

``register_check``, ``register_format``, ``register_dialect``, ``register_renderer`` and
``register_matcher`` each keep their public signature and messages, and each files its entries
in a :class:`Registry`: a table of named entries in registration order, filled with the
built-in entries on first read (``load``), with a version number that changes on every
change (what is derived from a table is cached under it) and one wording for an unknown name.

>>> colours: Registry[int] = Registry("colour")
>>> colours.add("red", 1)
1
>>> colours.add("blue", 2)
2
>>> colours.names(), colours.get("red"), "green" in colours
(('red', 'blue'), 1, False)
>>> colours.unknown("rde")
"unknown colour 'rde' (did you mean 'red'?); known: red, blue"
>>> colours.remove("blue"), colours.names()
(2, ('red',))
>>> colours["green"] = 3
>>> del colours["red"]
>>> dict(colours)
{'green': 3}
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator, MutableMapping
from typing import TypeVar

from agent_asserts._text import did_you_mean

V = TypeVar("V")


class Registry(MutableMapping[str, V]):
    """Named entries of one kind (``kind`` names them in messages), in registration order.

    A registry is a mapping (name → entry), so code that read a registry as the ``dict`` it
    used to be (``DIALECTS["native"]``, ``del CHECKS["x"]``, ``.items()``) keeps working;
    ``registry[name] = entry`` is :meth:`add` and ``del registry[name]`` is :meth:`remove`.

    Args:
        kind: What an entry is, for messages ("check class", "trace format", ...).
        load: Called once, before the first read, to register the built-in entries (it
            imports the modules that register themselves). Reentrant: a read during the load
            itself sees what is registered so far.

    >>> loaded = []
    >>> table: Registry[str] = Registry("thing", load=lambda: loaded.append(1))
    >>> table.names(), loaded
    ((), [1])
    >>> table.names(), loaded
    ((), [1])
    """

    def __init__(self, kind: str, *, load: Callable[[], object] | None = None) -> None:
        self.kind = kind
        self._load = load
        self._entries: dict[str, V] = {}
        self._version = 0
        self._loaded = load is None
        self._loading = False
        self._lock = threading.RLock()

    def _ensure_loaded(self) -> None:
        """Run ``load`` once. Other threads wait on the lock until it has finished (they never
        see a half-filled table); the loading thread itself may read the table meanwhile."""
        if self._loaded:
            return
        with self._lock:  # reentrant: the loading thread passes, the others wait here
            if self._loaded or self._loading:
                return
            self._loading = True
            try:
                assert self._load is not None
                self._load()
                self._loaded = True
            finally:
                self._loading = False

    @property
    def version(self) -> int:
        """A number that changes whenever an entry is added or removed.

        >>> table: Registry[int] = Registry("thing")
        >>> before = table.version
        >>> _ = table.add("a", 1)
        >>> table.version > before
        True
        """
        return self._version

    def add(self, name: str, value: V) -> V:
        """File ``value`` under ``name`` (replacing an entry of that name) and return it.

        The public ``register_*`` functions decide first whether a taken name is an error.
        """
        self._ensure_loaded()
        with self._lock:
            self._entries[name] = value
            self._version += 1
        return value

    def add_builtin(self, name: str, value: V) -> V:
        """File a built-in entry without loading the table first (``load`` itself calls it)."""
        with self._lock:
            self._entries[name] = value
            self._version += 1
        return value

    def remove(self, name: str) -> V:
        """Remove the entry ``name`` and return it.

        Raises:
            KeyError: Nothing is filed under ``name`` (the bare name, as ``dict`` raises it;
                the public ``unregister_*`` functions word their own).
        """
        self._ensure_loaded()
        with self._lock:
            value = self._entries.pop(name)
            self._version += 1
        return value

    def __contains__(self, name: object) -> bool:
        self._ensure_loaded()
        return name in self._entries

    def __iter__(self) -> Iterator[str]:
        self._ensure_loaded()
        return iter(tuple(self._entries))

    def __len__(self) -> int:
        self._ensure_loaded()
        return len(self._entries)

    def names(self) -> tuple[str, ...]:
        """Every name, in registration order."""
        self._ensure_loaded()
        return tuple(self._entries)

    def entries(self) -> tuple[tuple[str, V], ...]:
        """Every ``(name, entry)`` pair, in registration order: one snapshot (``.items()``
        looks each entry up again by its name).

        >>> table: Registry[int] = Registry("thing")
        >>> _ = table.add("a", 1)
        >>> table.entries()
        (('a', 1),)
        """
        self._ensure_loaded()
        return tuple(self._entries.items())

    def __getitem__(self, name: str) -> V:
        self._ensure_loaded()
        return self._entries[name]

    def __setitem__(self, name: str, value: V) -> None:
        self.add(name, value)

    def __delitem__(self, name: str) -> None:
        self.remove(name)

    def unknown(self, name: str, *, known: str = "known") -> str:
        """The message for a name nothing is filed under: a suggestion and the known names.

        >>> Registry[int]("report format").unknown("x", known="known formats")
        "unknown report format 'x'; known formats: "
        """
        names = self.names()
        return f"unknown {self.kind} {name!r}{did_you_mean(name, names)}; {known}: " + ", ".join(
            names
        )

    def __repr__(self) -> str:
        return f"Registry({self.kind!r}, {len(self._entries)} entries)"


__all__ = ["Registry"]
