"""The semantic family's judges: the protocol, the prompt rendering and the adapters.

A judge is any callable ``JudgeRequest -> JudgeResponse`` (or an awaitable of one). It grades
quality on top of the deterministic checks, never instead of them: see ``docs/judges.md``.

>>> from agent_asserts.judges import JudgeRequest, callable_judge, call_judge
>>> call_judge(callable_judge(lambda prompt: True), JudgeRequest("ok")).passed
True
"""

from __future__ import annotations

from agent_asserts.judges.clients import (
    CallableJudge,
    OpenAIJudge,
    callable_judge,
    openai_judge,
    parse_verdict,
)
from agent_asserts.judges.prompt import (
    MAX_STRING_CHARS,
    TEMPLATE,
    EvidenceError,
    build_request,
    render_prompt,
)
from agent_asserts.judges.protocol import (
    TEMPLATE_VERSION,
    Judge,
    JudgeError,
    JudgeRequest,
    JudgeResponse,
    JudgeResponseError,
    JudgeTimeout,
    call_judge,
    timed_judge,
)

__all__ = [
    "MAX_STRING_CHARS",
    "TEMPLATE",
    "TEMPLATE_VERSION",
    "CallableJudge",
    "EvidenceError",
    "Judge",
    "JudgeError",
    "JudgeRequest",
    "JudgeResponse",
    "JudgeResponseError",
    "JudgeTimeout",
    "OpenAIJudge",
    "build_request",
    "call_judge",
    "callable_judge",
    "openai_judge",
    "parse_verdict",
    "render_prompt",
    "timed_judge",
]
