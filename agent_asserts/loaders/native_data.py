"""The native form of a loaded suite: what ``Suite.to_dict()`` and ``Case.to_dict()`` write.

Any suite, loaded from any dialect, is written back as the native dialect
(:mod:`agent_asserts.loaders.native`): each entry as its fluent method, compact when the
check has a single positional value.

>>> from agent_asserts.loaders import loads
>>> suite = loads("{name: refunds, checks: [{not_called_tool: refunds_cancel}]}")
>>> suite_to_data(suite)
{'name': 'refunds', 'checks': [{'not_called_tool': 'refunds_cancel'}]}
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from agent_asserts.loaders.native_parts import check_signatures

if TYPE_CHECKING:
    from agent_asserts.loaders.suite import Case, CheckEntry, Suite


def entry_to_data(entry: CheckEntry) -> Any:
    """The native form of one entry; compact when the check has a single positional value.

    >>> from agent_asserts.checks.traces import MaxSteps
    >>> from agent_asserts.checks.outcome import Succeeded
    >>> from agent_asserts.loaders.suite import CheckEntry
    >>> entry_to_data(CheckEntry(MaxSteps(5))), entry_to_data(CheckEntry(MaxSteps(5), label="x"))
    ({'max_steps': 5}, {'max_steps': 5, 'label': 'x'})
    >>> entry_to_data(CheckEntry(Succeeded())), entry_to_data(CheckEntry(Succeeded(), name="ok"))
    ('succeeded', {'succeeded': None, 'name': 'ok'})
    """
    data = entry.check.to_data()
    ((method, args),) = data.items()
    siblings: dict[str, Any] = {}
    if entry.severity is not None:
        siblings["severity"] = entry.severity.value
    if entry.threshold is not None:
        siblings["at_least"] = entry.threshold
    if entry.label is not None:
        siblings["label"] = entry.label
    if entry.name is not None:
        siblings["name"] = entry.name
    if method == "expect":
        return {"expect": {**args, **siblings}}
    compact = _compact(method, args)
    if compact is None and not siblings:
        return method
    return {method: compact, **siblings}


def _compact(method: str, args: Any) -> Any:
    """``{n: 5}`` → ``5`` and ``{names: [a, b]}`` → ``[a, b]`` when that reads back the same."""
    sig = check_signatures().get(method)
    if sig is None or not isinstance(args, Mapping):
        return args
    if not args:
        return None
    if len(args) == 1:
        ((key, value),) = args.items()
        if sig.varargs == key and not sig.call_positional:
            return value
        single = sig.call_positional[:1] == (key,) and not sig.varargs
        if single and not isinstance(value, Mapping | list):
            return value
    return args


def case_to_data(case: Case, *, base_dir: str | os.PathLike[str] | None = None) -> dict[str, Any]:
    """The native form of one case: ``name``, ``record``, ``metadata`` and ``checks``.

    >>> from agent_asserts.loaders import loads
    >>> suite = loads("{name: refund, metadata: {tags: [smoke]}, checks: [succeeded]}")
    >>> case_to_data(suite.cases[0])
    {'name': 'refund', 'metadata': {'tags': ['smoke']}, 'checks': ['succeeded']}
    """
    out: dict[str, Any] = {"name": case.name}
    if case.record_path is not None:
        out["record"] = _relative(case.record_path, base_dir)
    if case.record_format != "auto":
        out["record_format"] = case.record_format
    if case.metadata:
        out["metadata"] = dict(case.metadata)
    out["checks"] = [entry_to_data(entry) for entry in case.entries]
    return out


def suite_to_data(
    suite: Suite, *, base_dir: str | os.PathLike[str] | None = None
) -> dict[str, Any]:
    """The native form of a suite: the single-case form when it has one case of its name.

    >>> from agent_asserts.loaders import loads
    >>> suite_to_data(loads("{name: refund, checks: [succeeded]}"))
    {'name': 'refund', 'checks': ['succeeded']}
    """
    if len(suite.cases) == 1 and suite.cases[0].name == suite.name:
        return case_to_data(suite.cases[0], base_dir=base_dir)
    cases = [case_to_data(case, base_dir=base_dir) for case in suite.cases]
    return {"name": suite.name, "cases": cases}


def _relative(path: Path, base_dir: str | os.PathLike[str] | None) -> str:
    if base_dir is None:
        return path.as_posix()
    try:
        return Path(os.path.relpath(path, base_dir)).as_posix()
    except ValueError:  # another drive on Windows
        return path.as_posix()


__all__ = ["case_to_data", "entry_to_data", "suite_to_data"]
