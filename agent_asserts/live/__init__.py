"""Live evaluation: the suites that gate CI, checked on traces as they complete.

* :class:`EvaluatingSpanProcessor` (extra ``otel``): an OpenTelemetry SDK span processor.
* :class:`agent_asserts.live.openai_agents.EvaluatingTracingProcessor` (extra
  ``openai-agents``): the same for the OpenAI Agents SDK's tracing.
* :class:`LiveStats`: the counters both expose as ``processor.stats``.
* ``agent-asserts watch``: the same on record files as they appear (``agent_asserts.cli.watch``).

Importing this package imports no tracing library; the processor classes import theirs.

>>> from agent_asserts.live import LiveStats
>>> LiveStats().evaluated
0
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from agent_asserts.live.engine import LiveStats

if TYPE_CHECKING:
    from agent_asserts.live.otel import EvaluatingSpanProcessor


def __getattr__(name: str) -> Any:
    if name == "EvaluatingSpanProcessor":
        from agent_asserts.live.otel import EvaluatingSpanProcessor

        return EvaluatingSpanProcessor
    raise AttributeError(f"module 'agent_asserts.live' has no attribute {name!r}")


__all__ = ["EvaluatingSpanProcessor", "LiveStats"]
