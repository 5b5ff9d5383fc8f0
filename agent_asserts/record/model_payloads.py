"""Typed payloads of the kinds real traces add: ``model_call``, ``reasoning``, ``guardrail``.

>>> from agent_asserts.record.usage import Usage
>>> ModelCallPayload("gpt-4o", usage=Usage(900, 120), finish_reason="tool_calls").to_dict()
{'model': 'gpt-4o', 'usage': {'input_tokens': 900, 'output_tokens': 120, 'total_tokens': 1020},
 'finish_reason': 'tool_calls'}
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import attrs

from agent_asserts.record._extra import merge_extra
from agent_asserts.record.usage import Usage


@attrs.frozen
class ModelCallPayload:
    """One request to a model and its response.

    Attributes:
        model: The model name (``gpt-4o``), or None when not recorded.
        provider: Who served it (``openai``, ``anthropic``…), or None.
        usage: The tokens of this call, or None when not recorded.
        finish_reason: Why the model stopped (``stop``, ``tool_calls``…), or None.
        is_error: Whether the call failed.
        error_message: The error text, or None.
        error_type: The error's type or code (``RateLimitError``, ``429``…), or None.
        extra: Keys the typed form does not know, kept for the round trip.

    >>> ModelCallPayload("claude", is_error=True, error_type="overloaded").to_dict()
    {'model': 'claude', 'is_error': True, 'error_type': 'overloaded'}
    """

    model: str | None = None
    provider: str | None = None
    usage: Usage | None = None
    finish_reason: str | None = None
    is_error: bool = False
    error_message: str | None = None
    error_type: str | None = None
    extra: Mapping[str, Any] = attrs.field(factory=dict)

    def to_dict(self) -> dict[str, Any]:
        """The canonical JSON form (None-valued fields and a false ``is_error`` omitted).

        >>> ModelCallPayload().to_dict()
        {}
        """
        out: dict[str, Any] = {}
        if self.model is not None:
            out["model"] = self.model
        if self.provider is not None:
            out["provider"] = self.provider
        if self.usage is not None:
            out["usage"] = self.usage.to_dict()
        if self.finish_reason is not None:
            out["finish_reason"] = self.finish_reason
        if self.is_error:
            out["is_error"] = True
        if self.error_message is not None:
            out["error_message"] = self.error_message
        if self.error_type is not None:
            out["error_type"] = self.error_type
        return merge_extra(out, self.extra)


@attrs.frozen
class ReasoningPayload:
    """A model's reasoning (thinking): its text, a summary, or only the fact it was redacted.

    >>> ReasoningPayload(summary="checked the order first").to_dict()
    {'summary': 'checked the order first'}
    >>> ReasoningPayload(redacted=True).to_dict()
    {'redacted': True}
    """

    text: str | None = None
    summary: str | None = None
    redacted: bool = False
    extra: Mapping[str, Any] = attrs.field(factory=dict)

    def to_dict(self) -> dict[str, Any]:
        """The canonical JSON form (None-valued fields and a false ``redacted`` omitted).

        >>> ReasoningPayload("a then b").to_dict()
        {'text': 'a then b'}
        """
        out: dict[str, Any] = {}
        if self.text is not None:
            out["text"] = self.text
        if self.summary is not None:
            out["summary"] = self.summary
        if self.redacted:
            out["redacted"] = True
        return merge_extra(out, self.extra)


@attrs.frozen
class GuardrailPayload:
    """A guardrail that ran: its name, whether it tripped, and what it reported.

    >>> GuardrailPayload("pii_filter", True, output={"found": "email"}).to_dict()
    {'name': 'pii_filter', 'triggered': True, 'output': {'found': 'email'}}
    """

    name: str
    triggered: bool = False
    output: Any = None
    extra: Mapping[str, Any] = attrs.field(factory=dict)

    def to_dict(self) -> dict[str, Any]:
        """The canonical JSON form (``output`` omitted when None).

        >>> GuardrailPayload("jailbreak").to_dict()
        {'name': 'jailbreak', 'triggered': False}
        """
        out: dict[str, Any] = {"name": self.name, "triggered": self.triggered}
        if self.output is not None:
            out["output"] = self.output
        return merge_extra(out, self.extra)


__all__ = ["GuardrailPayload", "ModelCallPayload", "ReasoningPayload"]
