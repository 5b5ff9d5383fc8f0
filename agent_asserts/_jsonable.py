"""Turn result values (matchers, mismatches, delta entries, events…) into JSON data.

Used by the ``to_dict()`` of results so that reports are lossless for what JSON can hold and
readable for the rest (a Python callable becomes its repr).

>>> to_jsonable({"a": (1, 2), "b": {3}})
{'a': [1, 2], 'b': [3]}
"""

from __future__ import annotations

import enum
import math
from collections.abc import Mapping
from typing import Any

from agent_asserts._missing import MISSING
from agent_asserts._text import safe_repr


def to_jsonable(value: Any) -> Any:
    """A JSON-serialisable rendering of ``value``.

    ``MISSING`` becomes ``{"$absent": true}`` (the matcher operator for "no value"); objects with
    ``to_dict()`` or ``to_data()`` use it; attrs classes become their field dicts; anything else
    unknown becomes its ``repr``. Non-finite floats become strings.

    >>> to_jsonable(MISSING)
    {'$absent': True}
    >>> to_jsonable(float("nan"))
    'nan'
    """
    if value is None or isinstance(value, bool | int | str):
        return value
    if isinstance(value, float):
        return value if math.isfinite(value) else repr(value)
    if value is MISSING:
        return {"$absent": True}
    if isinstance(value, enum.Enum):
        return to_jsonable(value.value)
    if isinstance(value, Mapping):
        return {str(k): to_jsonable(v) for k, v in value.items()}
    if isinstance(value, list | tuple | set | frozenset):
        items = sorted(value, key=repr) if isinstance(value, set | frozenset) else value
        return [to_jsonable(v) for v in items]
    for method in ("to_dict", "to_data"):
        fn = getattr(value, method, None)
        if callable(fn):
            try:
                return to_jsonable(fn())
            except TypeError:
                break
    fields = getattr(type(value), "__attrs_attrs__", None)
    if fields is not None and not callable(value):
        return {f.name: to_jsonable(getattr(value, f.name)) for f in fields}
    return safe_repr(value)


__all__ = ["to_jsonable"]
