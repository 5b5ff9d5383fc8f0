"""Turn a check's arguments into the native YAML/JSON form (``Check.to_data``).

>>> from agent_asserts.matching import M
>>> argument_to_data(M.gt(3))
{'$gt': 3}
>>> argument_to_data((1, 2))
[1, 2]
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from agent_asserts.matching import Count, value_to_data
from agent_asserts.selectors import Selector

if TYPE_CHECKING:
    from agent_asserts.checks.base import Check


def argument_to_data(value: Any) -> Any:
    """One argument: counts, selectors and matchers use their own ``to_data``.

    >>> from agent_asserts import Count, M, on
    >>> argument_to_data(Count.at_least(2)), argument_to_data([on.tool("a"), M.regex("^A")])
    ({'at_least': 2}, [{'tool': 'a'}, {'$regex': '^A'}])
    """
    if isinstance(value, Count | Selector):
        return value.to_data()
    if isinstance(value, tuple | list):
        return [argument_to_data(v) for v in value]
    return value_to_data(value)


def arguments_to_data(check: Check) -> dict[str, Any]:
    """The check's non-default arguments as a mapping of plain data.

    >>> from agent_asserts import Count
    >>> from agent_asserts.checks.tools import CalledTool
    >>> arguments_to_data(CalledTool("refunds_issue", count=Count.at_most(1)))
    {'name': 'refunds_issue', 'count': {'at_most': 1}}
    """
    return {key: argument_to_data(value) for key, value in check.given_arguments().items()}


__all__ = ["argument_to_data", "arguments_to_data"]
