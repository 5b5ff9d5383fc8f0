"""``as_contract(spec)``: a :class:`~agent_asserts.contract.Contract` from a contract or its
dict form.

Files are read at the edges (``agent_asserts.loaders.load_contract(path)`` gives a
``Contract`` with file positions in every problem); this layer only knows data.

>>> as_contract({"bind": {"n": {"from": "trace", "extract": "count"}},
...     "require": {"op": "equals", "left": "n", "right": 0}}).name
'contract'
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import Any

from agent_asserts.contract.model import Contract

ContractSpec = Contract | Mapping[str, Any]

SPEC_KINDS = "a Contract, its dict form or a Suite loaded from a contract file"


def spec_type_error(spec: Any) -> TypeError:
    """The error for a spec of none of the accepted kinds (a path gets a pointer to the loader).

    >>> print(spec_type_error("audit.yaml"))
    a contract spec is ... (got a path, 'audit.yaml': read it with
    agent_asserts.loaders.load_contract(path))
    """
    if isinstance(spec, str | os.PathLike):
        return TypeError(
            f"a contract spec is {SPEC_KINDS} (got a path, {os.fspath(spec)!r}: read it with "
            f"agent_asserts.loaders.load_contract(path))"
        )
    return TypeError(f"a contract spec is {SPEC_KINDS} (got {type(spec).__name__})")


def as_contract(spec: Any) -> Contract:
    """A :class:`Contract` from a contract or its dict form.

    Raises:
        ContractError: The dict form has problems (key paths).
        TypeError: ``spec`` is neither (the message names its type).

    >>> as_contract(42)
    Traceback (most recent call last):
    ...
    TypeError: a contract spec is a Contract, its dict form or a Suite loaded ... (got int)

    >>> as_contract({"contract": "c", "assertions": [{"id": "a", "bind": {},
    ...     "require": {"op": "equals", "left": "nope", "right": 1}}]})
    Traceback (most recent call last):
    ...
    agent_asserts.contract.problems.ContractError: assertions[0].require.left: 'nope' is not ...
    """
    if isinstance(spec, Contract):
        return spec
    if isinstance(spec, Mapping):
        return Contract.from_dict(spec)
    raise spec_type_error(spec)


__all__ = ["SPEC_KINDS", "ContractSpec", "as_contract", "spec_type_error"]
