"""The root of every exception the library raises on purpose.

Catch :class:`AgentAssertsError` to catch them all: a record that cannot be decoded
(:class:`~agent_asserts.record.RecordError`), a suite file that cannot be loaded
(``agent_asserts.loaders.LoadError``), a contract mistake, a judge error, a matcher built
with bad arguments. Each keeps its historical built-in base too (``ValueError`` for input
errors), so existing ``except ValueError`` code goes on working.

>>> from agent_asserts import RecordError, TrialRecord
>>> try:
...     TrialRecord.from_dict({"events": 3})
... except AgentAssertsError as exc:
...     print(type(exc).__name__)
RecordError
"""

from __future__ import annotations


class AgentAssertsError(Exception):
    """The base class of every exception ``agent_asserts`` raises on purpose."""


__all__ = ["AgentAssertsError"]
