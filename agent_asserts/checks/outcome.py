"""Run outcome: ``succeeded``, ``stopped``, ``message_includes``, ``output_equals``,
``output_matches``.

These read the run-level ``status`` and ``reply`` of the record; a record without them makes
the check ``invalid`` ("the record has no status"), never a pass or a plain fail. When the
reply is the text of the last agent message (no explicit ``reply``), that message is the
evidence.

>>> from agent_asserts.record import TrialRecord
>>> rec = TrialRecord.builder().agent("Refund issued for order A1049").build(status="completed")
>>> Succeeded().evaluate(rec).message
"status is 'completed'"
>>> MessageIncludes("A1049").evaluate(rec).evidence
('e0',)
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar, Final

import attrs

from agent_asserts.checks import register
from agent_asserts.checks.base import Check
from agent_asserts.matching import explain, render
from agent_asserts.matching.scalar import compile_regex, search, slash_hint
from agent_asserts.matching.values import plural
from agent_asserts.outcome import Outcome

if TYPE_CHECKING:
    from agent_asserts.record import TrialRecord

NO_REPLY = "the record has no reply"
REPLY_NOT_RECORDED = "the trace does not record the reply"
"""Why a reply check is ``invalid`` on a record whose reply is ``MISSING`` (no messages
recorded)."""


def reply_evidence(record: TrialRecord) -> tuple[str, ...]:
    """The id of the agent message the reply was taken from, if it was derived.

    >>> from agent_asserts.record import TrialRecord
    >>> reply_evidence(TrialRecord.builder().agent("hi").user("bye").build())
    ('e0',)
    """
    if record.explicit_reply is not None:
        return ()
    events = record.events
    for position in reversed(record.positions_of_kind("message")):
        if events[position].actor_ref == "agent":
            return (events[position].event_id,)
    return ()


def non_empty_text(instance: object, attribute: attrs.Attribute[Any], value: Any) -> None:
    """attrs validator: a non-empty string."""
    if not isinstance(value, str):
        raise TypeError(f"'{attribute.name}' must be a str (got {value!r})")
    if not value:
        raise ValueError(f"'{attribute.name}' must not be empty: it would match every reply")


def regex_validator(instance: object, attribute: attrs.Attribute[Any], value: Any) -> None:
    """attrs validator: a string that compiles as a regular expression (the wording of
    :func:`~agent_asserts.matching.scalar.compile_regex`, shared with ``M.regex``)."""
    compile_regex(value, name=attribute.name)


def _status_outcome(record: TrialRecord, wanted: str) -> Outcome:
    if record.status is None:
        return Outcome.invalid("the record has no status")
    if record.status == wanted:
        return Outcome.of(True, message=f"status is {wanted!r}", expected=wanted, observed=wanted)
    return Outcome.of(
        False,
        message=f"expected status {wanted!r}, got {record.status!r}",
        expected=wanted,
        observed=record.status,
    )


@register
@attrs.frozen(slots=False, repr=False, eq=False)
class Succeeded(Check):
    """The run's status is ``completed``.

    >>> from agent_asserts.record import TrialRecord
    >>> Succeeded().evaluate(TrialRecord.from_dict({"events": [], "status": "failed"})).message
    "expected status 'completed', got 'failed'"
    """

    method: ClassVar[str] = "succeeded"

    def evaluate(self, record: TrialRecord) -> Outcome:
        return _status_outcome(record, "completed")


@register
@attrs.frozen(slots=False, repr=False, eq=False)
class Stopped(Check):
    """The run's status is ``stopped``.

    >>> from agent_asserts.record import TrialRecord
    >>> Stopped().evaluate(TrialRecord.from_dict({"events": []})).message
    'the record has no status'
    """

    method: ClassVar[str] = "stopped"

    def evaluate(self, record: TrialRecord) -> Outcome:
        return _status_outcome(record, "stopped")


@register
@attrs.frozen(slots=False, repr=False, eq=False)
class MessageIncludes(Check):
    """The reply contains ``text`` (case-sensitive substring).

    >>> from agent_asserts.record import TrialRecord
    >>> rec = TrialRecord.from_dict({"events": [], "reply": "Refund issued"})
    >>> MessageIncludes("refund").evaluate(rec).message
    "the reply does not include 'refund'"
    """

    text: str = attrs.field(validator=non_empty_text)
    method: ClassVar[str] = "message_includes"
    positional: ClassVar[tuple[str, ...]] = ("text",)

    def evaluate(self, record: TrialRecord) -> Outcome:
        reply = record.reply
        if not isinstance(reply, str):
            return Outcome.invalid(NO_REPLY if reply is None else REPLY_NOT_RECORDED)
        found = self.text in reply
        verb = "includes" if found else "does not include"
        return Outcome.of(
            found,
            message=f"the reply {verb} {render(self.text)}",
            expected=self.text,
            observed=reply,
            evidence=reply_evidence(record),
        )


@register
@attrs.frozen(slots=False, repr=False, eq=False)
class OutputEquals(Check):
    """The reply matches ``expected`` under the default matching rules (strict for a string;
    a matcher such as ``M.regex`` or ``M.lenient`` applies itself).

    >>> from agent_asserts.record import TrialRecord
    >>> rec = TrialRecord.from_dict({"events": [], "reply": "done"})
    >>> OutputEquals("done").evaluate(rec).message
    "the reply equals 'done'"
    """

    expected: Any
    method: ClassVar[str] = "output_equals"
    positional: ClassVar[tuple[str, ...]] = ("expected",)

    def evaluate(self, record: TrialRecord) -> Outcome:
        reply = record.reply
        if not isinstance(reply, str):
            return Outcome.invalid(NO_REPLY if reply is None else REPLY_NOT_RECORDED)
        mismatches = explain(self.expected, reply)
        evidence = reply_evidence(record)
        if not mismatches:
            text = f"the reply equals {render(self.expected)}"
            return Outcome.of(
                True, message=text, expected=self.expected, observed=reply, evidence=evidence
            )
        reasons = "; ".join(m.reason for m in mismatches[:3])
        return Outcome.of(
            False,
            message=f"the reply does not equal {render(self.expected)}: {reasons}",
            expected=self.expected,
            observed=reply,
            evidence=evidence,
            mismatches=mismatches,
        )


@register
@attrs.frozen(slots=False, repr=False, eq=False)
class OutputMatches(Check):
    """``re.search(pattern, reply)`` finds a match; an invalid pattern is a ``ValueError``.

    >>> from agent_asserts.record import TrialRecord
    >>> rec = TrialRecord.from_dict({"events": [], "reply": "Order A1049 refunded"})
    >>> OutputMatches(r"A\\d{4}").evaluate(rec).status.value
    'pass'
    >>> OutputMatches("(")
    Traceback (most recent call last):
    ...
    ValueError: 'pattern': invalid regular expression '(': ...
    """

    pattern: str = attrs.field(validator=regex_validator)
    method: ClassVar[str] = "output_matches"
    positional: ClassVar[tuple[str, ...]] = ("pattern",)

    def evaluate(self, record: TrialRecord) -> Outcome:
        reply = record.reply
        if not isinstance(reply, str):
            return Outcome.invalid(NO_REPLY if reply is None else REPLY_NOT_RECORDED)
        found = search(compile_regex(self.pattern), reply)
        verb = "matches" if found else "does not match"
        details = {} if found is None else {"match": found.group(0), "span": list(found.span())}
        return Outcome.of(
            found is not None,
            message=f"the reply {verb} {render(self.pattern)}"
            + ("" if found else slash_hint(self.pattern)),
            expected=self.pattern,
            observed=reply,
            evidence=reply_evidence(record),
            details=details,
        )


ERROR_STATUSES: Final = frozenset({"failed", "error", "errored", "crashed"})


@register
@attrs.frozen(slots=False, repr=False, eq=False)
class EndedWithReply(Check):
    """The run ended with a reply to the user (an explicit ``reply``, else an agent message).

    ``invalid`` when the trace does not record the reply (docs/record.md, partial data).

    >>> from agent_asserts.record import TrialRecord
    >>> EndedWithReply().evaluate(TrialRecord.builder().tool("lookup").build()).message
    'the run ended without a reply'
    >>> unrecorded = TrialRecord.from_dict({"events": [], "surfaces": ["tool_call"]})
    >>> EndedWithReply().evaluate(unrecorded).message
    'the trace does not record the reply'
    """

    method: ClassVar[str] = "ended_with_reply"

    def evaluate(self, record: TrialRecord) -> Outcome:
        reply = record.reply
        if not isinstance(reply, str):
            if reply is not None:  # MISSING: the trace does not record messages
                return Outcome.invalid(REPLY_NOT_RECORDED)
            return Outcome.of(False, message="the run ended without a reply")
        return Outcome.of(
            True, message="the run ended with a reply", evidence=reply_evidence(record)
        )


@register
@attrs.frozen(slots=False, repr=False, eq=False)
class EndedWithoutError(Check):
    """The run did not end in error: its status is not an error status (``failed``,
    ``error``, ``errored``, ``crashed``) and the harness recorded no run error.

    >>> from agent_asserts.record import TrialRecord
    >>> rec = TrialRecord.from_dict({"events": [], "status": "failed"})
    >>> EndedWithoutError().evaluate(rec).message
    "the run ended with status 'failed'"
    """

    method: ClassVar[str] = "ended_without_error"

    def evaluate(self, record: TrialRecord) -> Outcome:
        errors = tuple(record.errors)
        if record.status is None and not errors:
            return Outcome.invalid("the record has no status")
        parts = []
        if record.status in ERROR_STATUSES:
            parts.append(f"the run ended with status {record.status!r}")
        if errors:
            shown = "; ".join(str(e) for e in errors[:3])
            parts.append(f"{plural(len(errors), 'run error')}: {shown}")
        if parts:
            return Outcome.of(False, message=" and ".join(parts), observed=record.status)
        return Outcome.of(
            True, message=f"the run ended with status {record.status!r}", observed=record.status
        )


__all__ = [
    "ERROR_STATUSES",
    "EndedWithReply",
    "EndedWithoutError",
    "MessageIncludes",
    "OutputEquals",
    "OutputMatches",
    "Stopped",
    "Succeeded",
    "non_empty_text",
    "regex_validator",
    "reply_evidence",
]
