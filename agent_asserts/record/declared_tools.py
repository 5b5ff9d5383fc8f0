"""The tools the agent was offered: name, description, JSON Schema of the parameters.

>>> tool = DeclaredTool("lookup_order", parameters={"type": "object",
...     "properties": {"order_id": {"type": "string"}}, "required": ["order_id"]})
>>> tool.to_dict()["name"]
'lookup_order'
>>> problems: list[tuple[str, str]] = []
>>> _ = decode_tools([{"name": "a"}, {"name": "a"}], problems); problems
[('$.tools[1].name', "duplicate tool 'a' (already declared at $.tools[0])")]
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

import attrs

from agent_asserts._values import MAX_DEPTH
from agent_asserts.record.validators import (
    Problems,
    child,
    copy_within,
    must_be_list,
    must_be_object,
    optional_str,
    required_str,
    unknown_keys,
)

TOOL_KEYS: Final = ("name", "description", "parameters")
"""The keys of a declared tool in its canonical JSON form."""


@attrs.frozen
class DeclaredTool:
    """A tool the agent was offered.

    Attributes:
        name: The tool's name (what calls name).
        description: Its description, or None.
        parameters: The JSON Schema of its arguments (an object), or None when not recorded.

    >>> DeclaredTool("search", "Search the web").to_dict()
    {'name': 'search', 'description': 'Search the web'}
    """

    name: str
    description: str | None = None
    parameters: Mapping[str, Any] | None = None

    def to_dict(self) -> dict[str, Any]:
        """The canonical JSON form (None-valued fields omitted).

        >>> DeclaredTool("t", parameters={"type": "object"}).to_dict()
        {'name': 't', 'parameters': {'type': 'object'}}
        """
        out: dict[str, Any] = {"name": self.name}
        if self.description is not None:
            out["description"] = self.description
        if self.parameters is not None:
            out["parameters"] = self.parameters
        return out


def decode_tools(raw: Any, problems: Problems, path: str = "$.tools") -> tuple[DeclaredTool, ...]:
    """Decode the top-level ``tools`` list, adding every problem (names must be unique).

    Args:
        raw: The value of ``tools``.
        problems: Where ``(path, message)`` problems are appended.
        path: The JSON path of the list.

    Returns:
        The declared tools (incomplete when problems were found).

    >>> problems: Problems = []
    >>> decode_tools([{"name": "a", "parameters": []}], problems); problems
    ()
    [('$.tools[0].parameters', 'must be an object (got [])')]
    """
    if (message := must_be_list(raw)) is not None:
        problems.append((path, message))
        return ()
    out: list[DeclaredTool] = []
    first: dict[str, int] = {}
    for i, item in enumerate(raw):
        ipath = child(path, i)
        if (message := must_be_object(item)) is not None:
            problems.append((ipath, message))
            continue
        before = len(problems)
        unknown_keys(item, TOOL_KEYS, ipath, problems)
        name = required_str(item, "name", ipath, problems)
        if name is not None and first.setdefault(name, i) != i:
            earlier = f"{path}[{first[name]}]"
            message = f"duplicate tool {name!r} (already declared at {earlier})"
            problems.append((child(ipath, "name"), message))
        description = optional_str(item, "description", ipath, problems)
        parameters = item.get("parameters")
        if parameters is not None:
            if (message := must_be_object(parameters)) is not None:
                problems.append((child(ipath, "parameters"), message))
            else:
                # level 4 of a record: record, tools list, tool, parameters
                where = child(ipath, "parameters")
                parameters = copy_within(parameters, where, problems, MAX_DEPTH - 3)
        if len(problems) == before:
            out.append(DeclaredTool(name, description, parameters))
    return tuple(out)


__all__ = ["TOOL_KEYS", "DeclaredTool", "decode_tools"]
