"""The conversation family of :class:`~agent_asserts.context.EvalContext` (Rasa Mantle's
assertions): skills, ordered blocks, memory, agent messages and turns
(``docs/checks-conversation.md``, classes in :mod:`agent_asserts.checks.conversation`).

>>> from agent_asserts import EvalContext
>>> from agent_asserts.testing import demo_record
>>> EvalContext(demo_record()).memory_was_set("refund.order_id").result.passed
True
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, overload

from agent_asserts._values import MISSING
from agent_asserts.checks import conversation
from agent_asserts.fluent.recording import Recorder

if TYPE_CHECKING:
    from agent_asserts.fluent.handles import AssertionHandle
    from agent_asserts.matching import Matcher
    from agent_asserts.record import Button
    from agent_asserts.selectors import ToolSelector


class ConversationMethods(Recorder):
    """Skills, ordered blocks, memory, agent messages and turns (Mantle)."""

    def _lifecycle(self, method: str, *ids: str | None) -> AssertionHandle:
        """Record the lifecycle check ``method`` (a key of ``conversation.LIFECYCLE_CHECKS``).

        The ten skill and ordered-block methods below are one line each over this.

        >>> from agent_asserts import EvalContext, TrialRecord
        >>> rec = TrialRecord.builder().skill("resumed", "card_replace", "ask").build()
        >>> EvalContext(rec)._lifecycle("skill_resumed", "card_replace", "ask").result.passed
        True
        """
        return self._record(conversation.LIFECYCLE_CHECKS[method](*ids))

    def skill_activated(self, skill_id: str) -> AssertionHandle:
        """Skill ``skill_id`` was activated.

        >>> from agent_asserts import EvalContext, TrialRecord
        >>> rec = TrialRecord.builder().skill("activated", "card_replace").build()
        >>> EvalContext(rec).skill_activated("card_replace").result.message
        "skill 'card_replace' activated: e0"
        """
        return self._lifecycle("skill_activated", skill_id)

    def skill_completed(self, skill_id: str) -> AssertionHandle:
        """Skill ``skill_id`` completed.

        >>> from agent_asserts import EvalContext, TrialRecord
        >>> rec = TrialRecord.builder().skill("completed", "card_replace").build()
        >>> EvalContext(rec).skill_completed("card_replace").result.message
        "skill 'card_replace' completed: e0"
        """
        return self._lifecycle("skill_completed", skill_id)

    def skill_cancelled(self, skill_id: str, step_id: str | None = None) -> AssertionHandle:
        """Skill ``skill_id`` was cancelled (at ``step_id``, when given).

        >>> from agent_asserts import EvalContext, TrialRecord
        >>> rec = TrialRecord.builder().skill("cancelled", "card_replace", "confirm").build()
        >>> EvalContext(rec).skill_cancelled("card_replace", "ask").result.message
        "skill 'card_replace' was not cancelled at step 'ask' (1 skill event; closest e0)"
        """
        return self._lifecycle("skill_cancelled", skill_id, step_id)

    def skill_interrupted(self, skill_id: str, step_id: str | None = None) -> AssertionHandle:
        """Skill ``skill_id`` was interrupted (at ``step_id``, when given).

        >>> from agent_asserts import EvalContext, TrialRecord
        >>> rec = TrialRecord.builder().skill("interrupted", "card_replace", "ask").build()
        >>> EvalContext(rec).skill_interrupted("card_replace", "ask").result.message
        "skill 'card_replace' interrupted at step 'ask': e0"
        """
        return self._lifecycle("skill_interrupted", skill_id, step_id)

    def skill_resumed(self, skill_id: str, step_id: str | None = None) -> AssertionHandle:
        """Skill ``skill_id`` was resumed (at ``step_id``, when given).

        >>> from agent_asserts import EvalContext, TrialRecord
        >>> rec = TrialRecord.builder().skill("resumed", "card_replace", "ask").build()
        >>> EvalContext(rec).skill_resumed("card_replace").result.message
        "skill 'card_replace' resumed: e0"
        """
        return self._lifecycle("skill_resumed", skill_id, step_id)

    def ordered_block_entered(self, skill_id: str, block_id: str) -> AssertionHandle:
        """Ordered block ``block_id`` of skill ``skill_id`` was entered.

        >>> from agent_asserts import EvalContext, TrialRecord
        >>> rec = TrialRecord.builder().block("entered", "card_replace", "main").build()
        >>> EvalContext(rec).ordered_block_entered("card_replace", "main").result.message
        "ordered block 'main' of skill 'card_replace' entered: e0"
        """
        return self._lifecycle("ordered_block_entered", skill_id, block_id)

    def ordered_block_completed(
        self, skill_id: str, block_id: str, step_id: str | None = None
    ) -> AssertionHandle:
        """The ordered block completed (at ``step_id``, when given).

        >>> from agent_asserts import EvalContext, TrialRecord
        >>> rec = TrialRecord.builder().block("completed", "card_replace", "main", "done").build()
        >>> EvalContext(rec).ordered_block_completed("card_replace", "main", "done").result.passed
        True
        """
        return self._lifecycle("ordered_block_completed", skill_id, block_id, step_id)

    def ordered_block_cancelled(
        self, skill_id: str, block_id: str, step_id: str | None = None
    ) -> AssertionHandle:
        """The ordered block was cancelled (at ``step_id``, when given).

        >>> from agent_asserts import EvalContext, TrialRecord
        >>> rec = TrialRecord.builder().block("cancelled", "card_replace", "main").build()
        >>> EvalContext(rec).ordered_block_cancelled("card_replace", "main").result.message
        "ordered block 'main' of skill 'card_replace' cancelled: e0"
        """
        return self._lifecycle("ordered_block_cancelled", skill_id, block_id, step_id)

    def ordered_block_interrupted(
        self, skill_id: str, block_id: str, step_id: str | None = None
    ) -> AssertionHandle:
        """The ordered block was interrupted (at ``step_id``, when given).

        >>> from agent_asserts import EvalContext, TrialRecord
        >>> rec = TrialRecord.builder().block("interrupted", "card_replace", "main", "ask").build()
        >>> EvalContext(rec).ordered_block_interrupted("card_replace", "main", "ask").result.passed
        True
        """
        return self._lifecycle("ordered_block_interrupted", skill_id, block_id, step_id)

    def ordered_block_resumed(
        self, skill_id: str, block_id: str, step_id: str | None = None
    ) -> AssertionHandle:
        """The ordered block was resumed (at ``step_id``, when given).

        >>> from agent_asserts import EvalContext, TrialRecord
        >>> rec = TrialRecord.builder().block("resumed", "card_replace", "main").build()
        >>> EvalContext(rec).ordered_block_resumed("card_replace", "main").result.message
        "ordered block 'main' of skill 'card_replace' resumed: e0"
        """
        return self._lifecycle("ordered_block_resumed", skill_id, block_id, step_id)

    @overload
    def memory_was_set(  # type: ignore[overload-overlap]  # a str is a Sequence
        self, name: str, value: Any = MISSING
    ) -> AssertionHandle: ...
    @overload
    def memory_was_set(
        self, name: Sequence[str | Mapping[str, Any]], value: Any = MISSING
    ) -> list[AssertionHandle]: ...
    def memory_was_set(
        self, name: str | Sequence[str | Mapping[str, Any]], value: Any = MISSING
    ) -> AssertionHandle | list[AssertionHandle]:
        """Some write of memory key ``name`` (with ``value``, strictly, when given).

        A list of names or ``{"name": ..., "value": ...}`` mappings records one result per
        entry and returns their handles.

        >>> from agent_asserts import EvalContext
        >>> from agent_asserts.testing import demo_record
        >>> entries = ["refund.order_id", {"name": "refund.order_id", "value": "A1050"}]
        >>> [h.result.passed for h in EvalContext(demo_record()).memory_was_set(entries)]
        [True, False]
        """
        if isinstance(name, str):
            return self._record(conversation.MemoryWasSet(name, value))
        checks = conversation.memory_checks(conversation.MemoryWasSet, name, value)
        return [self._record(check) for check in checks]

    @overload
    def memory_was_not_set(  # type: ignore[overload-overlap]  # a str is a Sequence
        self, name: str, value: Any = MISSING
    ) -> AssertionHandle: ...
    @overload
    def memory_was_not_set(
        self, name: Sequence[str | Mapping[str, Any]], value: Any = MISSING
    ) -> list[AssertionHandle]: ...
    def memory_was_not_set(
        self, name: str | Sequence[str | Mapping[str, Any]], value: Any = MISSING
    ) -> AssertionHandle | list[AssertionHandle]:
        """No write of ``name``; with ``value``: its last write was not ``value``.

        A list of names or ``{"name": ..., "value": ...}`` mappings records one result per
        entry and returns their handles.

        >>> from agent_asserts import EvalContext
        >>> from agent_asserts.testing import demo_record
        >>> EvalContext(demo_record()).memory_was_not_set("refund.order_id", "A1050").result.message
        "the last write of 'refund.order_id' (e2) was 'A1049', not 'A1050'"
        """
        if isinstance(name, str):
            return self._record(conversation.MemoryWasNotSet(name, value))
        checks = conversation.memory_checks(conversation.MemoryWasNotSet, name, value)
        return [self._record(check) for check in checks]

    @overload
    def memory_was_cleared(  # type: ignore[overload-overlap]  # a str is a Sequence
        self, name: str
    ) -> AssertionHandle: ...
    @overload
    def memory_was_cleared(
        self, name: Sequence[str | Mapping[str, Any]]
    ) -> list[AssertionHandle]: ...
    def memory_was_cleared(
        self, name: str | Sequence[str | Mapping[str, Any]]
    ) -> AssertionHandle | list[AssertionHandle]:
        """Memory key ``name`` was cleared.

        A list of names or ``{"name": ...}`` mappings records one result per entry and
        returns their handles.

        >>> from agent_asserts import EvalContext, TrialRecord
        >>> rec = TrialRecord.builder().memory_set("draft", "d1").memory_clear("draft").build()
        >>> for handle in EvalContext(rec).memory_was_cleared(["draft", "order_id"]):
        ...     print(handle.result.message)
        'draft' was cleared: e1
        'order_id' was never cleared; memory keys written, nearest first: 'draft'
        """
        if isinstance(name, str):
            return self._record(conversation.MemoryWasCleared(name))
        checks = conversation.memory_checks(conversation.MemoryWasCleared, name)
        return [self._record(check) for check in checks]

    def bot_uttered(
        self,
        *,
        utter_name: str | None = None,
        text_matches: str | Matcher | None = None,
        buttons: Sequence[Mapping[str, Any] | Button] | None = None,
    ) -> AssertionHandle:
        """One agent message matches every given field.

        >>> from agent_asserts import EvalContext
        >>> from agent_asserts.testing import demo_record
        >>> EvalContext(demo_record()).bot_uttered(utter_name="utter_refund_done").result.message
        'e4 matched'
        """
        check = conversation.BotUttered(
            utter_name=utter_name, text_matches=text_matches, buttons=buttons
        )
        return self._record(check)

    def bot_did_not_utter(
        self,
        *,
        utter_name: str | None = None,
        text_matches: str | Matcher | None = None,
        buttons: Sequence[Mapping[str, Any] | Button] | None = None,
    ) -> AssertionHandle:
        """No agent message matches every given field.

        >>> from agent_asserts import EvalContext, M
        >>> from agent_asserts.testing import demo_record
        >>> ctx = EvalContext(demo_record())
        >>> ctx.bot_did_not_utter(text_matches=M.regex("(?i)sorry")).result.message
        'none of 1 agent message matched'
        """
        check = conversation.BotDidNotUtter(
            utter_name=utter_name,
            text_matches=text_matches,
            buttons=buttons,
        )
        return self._record(check)

    def tools_within_one_turn(
        self,
        *calls: ToolSelector | str,
        allow_extra_calls: bool,
        ordered: bool = False,
        ignore: Iterable[str] = (),
    ) -> AssertionHandle:
        """Every listed call ran in one user turn (each run counts toward one call).

        >>> from agent_asserts import EvalContext, TrialRecord
        >>> rec = TrialRecord.builder().user("block c1").tool("block_card").tool("notify").build()
        >>> ctx = EvalContext(rec)
        >>> ctx.tools_within_one_turn("notify", "block_card", allow_extra_calls=False).result.passed
        True
        """
        check = conversation.ToolsWithinOneTurn(
            *calls,
            allow_extra_calls=allow_extra_calls,
            ordered=ordered,
            ignore=ignore,
        )
        return self._record(check)


__all__ = ["ConversationMethods"]
