"""Merging a payload's unknown keys (``extra``) back into its canonical JSON form.

>>> merge_extra({"name": "t"}, {"vendor": 1})
{'vendor': 1, 'name': 't'}
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import attrs


def merge_extra(out: dict[str, Any], extra: Mapping[str, Any]) -> dict[str, Any]:
    """``out`` with the ``extra`` keys added (known keys win).

    >>> merge_extra({"a": 1}, {})
    {'a': 1}
    """
    if not extra:
        return out
    merged = dict(extra)
    merged.update(out)
    return merged


def short_repr(payload: Any, optional: tuple[str, ...]) -> str:
    """The attrs-style repr of ``payload``, leaving out the ``optional`` fields (those added
    after ``extra``) while they hold their defaults, so older reprs read the same.

    >>> import attrs
    >>> @attrs.frozen(repr=False)
    ... class P:
    ...     a: int
    ...     b: int | None = None
    ...     def __repr__(self) -> str:
    ...         return short_repr(self, ("b",))
    >>> P(1), P(1, 2)
    (P(a=1), P(a=1, b=2))
    """
    parts = []
    for field in attrs.fields(type(payload)):
        value = getattr(payload, field.name)
        if field.name in optional and _is_default(payload, field, value):
            continue
        parts.append(f"{field.name}={value!r}")
    return f"{type(payload).__name__}({', '.join(parts)})"


def _is_default(payload: Any, field: Any, value: Any) -> bool:
    default = field.default
    if isinstance(default, attrs.Factory):  # type: ignore[arg-type]
        default = default.factory(payload) if default.takes_self else default.factory()
    return bool(value == default)


__all__ = ["merge_extra", "short_repr"]
