"""Builder methods of the kinds real traces add: ``model_call``, ``reasoning``, ``guardrail``.

:class:`TraceEvents` is a base of :class:`~agent_asserts.record.builder.RecordBuilder`.

>>> from agent_asserts.record.builder import RecordBuilder
>>> rec = (RecordBuilder().model_call("gpt-4o", usage={"input_tokens": 9, "output_tokens": 3})
...        .reasoning(summary="look up first").guardrail("pii", False).build())
>>> [e.kind for e in rec.events]
['model_call', 'reasoning', 'guardrail']
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self

from typing_extensions import Unpack

from agent_asserts.record._builder_args import Envelope, as_json, as_usage, check
from agent_asserts.record.model_payloads import (
    GuardrailPayload,
    ModelCallPayload,
    ReasoningPayload,
)
from agent_asserts.record.usage import Usage
from agent_asserts.record.validators import must_be_bool, must_be_str

if TYPE_CHECKING:
    from agent_asserts.record.payloads import Payload


def _optional_strs(**values: Any) -> None:
    for label, value in values.items():
        if value is not None:
            check(label, must_be_str(value))


class TraceEvents:
    """The ``model_call``, ``reasoning`` and ``guardrail`` methods of the record builder."""

    if TYPE_CHECKING:

        def _add(
            self,
            method: str,
            kind: str,
            payload: Payload,
            envelope: Mapping[str, Any],
            *,
            event_type: str | None = None,
            fixed: tuple[str, ...] = (),
            actor_ref: str | None = None,
        ) -> Any: ...

    def model_call(
        self,
        model: str | None,
        usage: Usage | Mapping[str, Any] | None = None,
        *,
        provider: str | None = None,
        finish_reason: str | None = None,
        is_error: bool = False,
        error_message: str | None = None,
        error_type: str | None = None,
        **envelope: Unpack[Envelope],
    ) -> Self:
        """A request to a model and its response (``usage``: a ``Usage`` or a mapping).

        >>> from agent_asserts.record.builder import RecordBuilder
        >>> RecordBuilder().model_call("gpt-4o", finish_reason="stop").build().events[0].payload
        ModelCallPayload(model='gpt-4o', provider=None, usage=None, finish_reason='stop',
                         is_error=False, error_message=None, error_type=None, extra={})
        """
        _optional_strs(
            model=model,
            provider=provider,
            finish_reason=finish_reason,
            error_message=error_message,
            error_type=error_type,
        )
        check("is_error", must_be_bool(is_error))
        payload = ModelCallPayload(
            model, provider, as_usage(usage), finish_reason, is_error, error_message, error_type
        )
        self._add("model_call", "model_call", payload, envelope)
        return self

    def reasoning(
        self,
        text: str | None = None,
        summary: str | None = None,
        redacted: bool = False,
        **envelope: Unpack[Envelope],
    ) -> Self:
        """A model's reasoning: its text, a summary, or only that it was redacted.

        >>> from agent_asserts.record.builder import RecordBuilder
        >>> RecordBuilder().reasoning(redacted=True).build().events[0].payload.redacted
        True
        """
        _optional_strs(text=text, summary=summary)
        check("redacted", must_be_bool(redacted))
        self._add("reasoning", "reasoning", ReasoningPayload(text, summary, redacted), envelope)
        return self

    def guardrail(
        self,
        name: str,
        triggered: bool,
        output: Any = None,
        **envelope: Unpack[Envelope],
    ) -> Self:
        """A guardrail that ran: whether it tripped, and what it reported.

        >>> from agent_asserts.record.builder import RecordBuilder
        >>> RecordBuilder().guardrail("pii", True, {"found": "email"}).build().events[0].payload
        GuardrailPayload(name='pii', triggered=True, output={'found': 'email'}, extra={})
        """
        check("name", must_be_str(name, non_empty=True))
        check("triggered", must_be_bool(triggered))
        payload = GuardrailPayload(name, triggered, as_json("output", output))
        self._add("guardrail", "guardrail", payload, envelope)
        return self


__all__ = ["TraceEvents"]
