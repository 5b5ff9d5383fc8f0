"""Agent messages: ``bot_uttered`` and ``bot_did_not_utter``.

Both read the agent's messages (``actor_ref == "agent"``) through one
``on.message(actor="agent", …)`` selector. **One message must match every given field** (the
documented Mantle meaning; docs/mantle.md): ``utter_name`` equals the response name,
``text_matches`` is a regular expression searched anywhere in the text (or a matcher applied
to the whole text), and ``buttons`` lists buttons (``title`` and optional ``payload``) the
message must all carry; an expected button without ``payload`` matches any payload. At least
one field is required (``ValueError``), and an invalid regex is a ``ValueError`` when built.

>>> from agent_asserts.record import TrialRecord
>>> rec = TrialRecord.builder().agent("Sorry, I cannot help", utter_name="utter_sorry").build()
>>> BotDidNotUtter(text_matches="Cannot").evaluate(rec).status.value
'pass'
>>> BotUttered(text_matches="cannot", utter_name="utter_other").evaluate(rec).message
'no agent message matched all given fields (1 agent message; closest e0)'
"""

from __future__ import annotations

import abc
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, ClassVar

import attrs

from agent_asserts.checks.base import Check
from agent_asserts.checks.registry import register
from agent_asserts.checks.selection import AGENT_MESSAGES, closest_fields, event_ids, id_list
from agent_asserts.matching import Matcher
from agent_asserts.matching.scalar import compile_regex
from agent_asserts.matching.values import plural
from agent_asserts.outcome import Outcome, missing_surface
from agent_asserts.record import Button
from agent_asserts.selectors.calls import MessageSelector

if TYPE_CHECKING:
    from agent_asserts.record import TrialRecord


def _button_data(value: Any) -> dict[str, Any]:
    if isinstance(value, Button):
        value = value.to_dict()
    if not isinstance(value, Mapping) or set(value) - {"title", "payload"}:
        raise ValueError(f"a button is {{'title': ..., 'payload': ... (optional)}} (got {value!r})")
    title, payload = value.get("title"), value.get("payload")
    if not isinstance(title, str):
        raise ValueError(f"a button's 'title' must be a str (got {title!r})")
    if payload is not None and not isinstance(payload, str):
        raise ValueError(f"a button's 'payload' must be a str (got {payload!r})")
    return {"title": title} if payload is None else {"title": title, "payload": payload}


def _buttons(value: Any) -> tuple[dict[str, Any], ...] | None:
    if value is None:
        return None
    if isinstance(value, str | Mapping | Button) or not isinstance(value, Sequence):
        raise ValueError(f"'buttons' must be a list of buttons (got {value!r})")
    if not value:
        raise ValueError("'buttons' must not be empty: list the buttons the message carries")
    return tuple(_button_data(b) for b in value)


def _text(instance: object, attribute: attrs.Attribute[Any], value: Any) -> None:
    if value is None or isinstance(value, Matcher):
        return
    compile_regex(value, name="text_matches")


def _utter_name(instance: object, attribute: attrs.Attribute[Any], value: Any) -> None:
    if value is not None and (not isinstance(value, str) or not value):
        raise TypeError(f"'utter_name' must be a non-empty str (got {value!r})")


@attrs.frozen
class MessageCheck(Check):
    """The shared fields and selector of ``bot_uttered`` and ``bot_did_not_utter``."""

    utter_name: str | None = attrs.field(default=None, kw_only=True, validator=_utter_name)
    text_matches: str | Matcher | None = attrs.field(default=None, kw_only=True, validator=_text)
    buttons: tuple[dict[str, Any], ...] | None = attrs.field(
        default=None, kw_only=True, converter=_buttons
    )
    _selector: MessageSelector = attrs.field(init=False, eq=False, repr=False)

    @_selector.default
    def _select_messages(self) -> MessageSelector:
        attrs.validate(self)  # the given fields' own messages come first
        if self.utter_name is None and self.text_matches is None and self.buttons is None:
            raise ValueError(
                f"{self.method}() needs at least one of 'utter_name', 'text_matches', 'buttons'"
            )
        return MessageSelector(
            actor="agent",
            text=self.text_matches,
            utter_name=self.utter_name,
            buttons=self.buttons,
        )

    def selector(self) -> MessageSelector:
        """The ``on.message(actor="agent", …)`` selector of the messages this check reads.

        >>> BotUttered(utter_name="utter_refund_done").selector()
        on.message(actor='agent', utter_name='utter_refund_done')
        """
        return self._selector

    def agent_messages(self, record: TrialRecord) -> list[int]:
        """Positions of the agent's messages.

        >>> from agent_asserts.testing import demo_record
        >>> BotUttered(utter_name="utter_refund_done").agent_messages(demo_record())
        [4]
        """
        return AGENT_MESSAGES.select(record)

    def evaluate(self, record: TrialRecord) -> Outcome:
        invalid = missing_surface(record, "message")
        if invalid is not None:
            return invalid
        details = {"selector": self._selector.describe()}
        return self.verdict(record, self._selector.select(record), details)

    @abc.abstractmethod
    def verdict(self, record: TrialRecord, matched: list[int], details: dict[str, Any]) -> Outcome:
        """The outcome, given the positions of the agent messages that match every field."""


@register
@attrs.frozen
class BotUttered(MessageCheck):
    """At least one agent message matches every given field.

    >>> from agent_asserts.record import TrialRecord
    >>> buttons = [{"title": "Yes", "payload": "/y"}]
    >>> rec = TrialRecord.builder().agent("Pick", buttons=buttons).build()
    >>> BotUttered(buttons=[{"title": "Yes"}]).evaluate(rec).message
    'e0 matched'
    """

    method: ClassVar[str] = "bot_uttered"

    def verdict(self, record: TrialRecord, matched: list[int], details: dict[str, Any]) -> Outcome:
        if matched:
            ids = event_ids(record, matched)
            text = f"{id_list(ids)} matched"
            return Outcome.of(True, message=text, evidence=ids, observed=len(ids), details=details)
        said = self.agent_messages(record)
        if not said:
            return Outcome.of(False, message="the agent sent no message", observed=0)
        closest = closest_fields(self._selector.closest(record, said))
        text = "no agent message matched all given fields "
        text += f"({plural(len(said), 'agent message')}; closest {closest.get('closest')})"
        return Outcome.of(
            False,
            message=text,
            observed=0,
            evidence=event_ids(record, said),
            details=details,
            **closest,
        )


@register
@attrs.frozen
class BotDidNotUtter(MessageCheck):
    """No agent message matches every given field.

    >>> from agent_asserts.record import TrialRecord
    >>> rec = TrialRecord.builder().agent("hi", utter_name="utter_cannot_help").build()
    >>> BotDidNotUtter(utter_name="utter_cannot_help").evaluate(rec).message
    '1 agent message matched: e0'
    """

    method: ClassVar[str] = "bot_did_not_utter"

    def verdict(self, record: TrialRecord, matched: list[int], details: dict[str, Any]) -> Outcome:
        if not matched:
            said = len(self.agent_messages(record))
            text = f"none of {plural(said, 'agent message')} matched"
            return Outcome.of(True, message=text, observed=0, details=details)
        ids = event_ids(record, matched)
        text = f"{plural(len(ids), 'agent message')} matched: {id_list(ids)}"
        return Outcome.of(False, message=text, evidence=ids, observed=len(ids), details=details)


__all__ = ["BotDidNotUtter", "BotUttered", "MessageCheck"]
