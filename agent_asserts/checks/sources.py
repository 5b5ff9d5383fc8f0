"""Where a value expectation reads its value: a literal, a record field, or a state path.

>>> from agent_asserts.record import TrialRecord
>>> rec = TrialRecord.from_dict({"events": [], "reply": "done", "final_state": {"a": {"b": 1}}})
>>> RecordField("reply").resolve(rec)
'done'
>>> StatePath("/a/b").resolve(rec)
1
>>> StatePath("/a/zzz").resolve(rec)
MISSING
"""

from __future__ import annotations

import abc
from typing import TYPE_CHECKING, Any

import attrs

from agent_asserts.errors import RecordLacks
from agent_asserts.matching import value_to_data
from agent_asserts.record import parse_pointer, resolve

if TYPE_CHECKING:
    from agent_asserts.record import TrialRecord

RECORD_FIELDS = (
    "reply",
    "status",
    "steps",
    "errors",
    "usage.input_tokens",
    "usage.output_tokens",
    "usage.total_tokens",
)


class ValueSource(abc.ABC):
    """A place a value comes from."""

    @abc.abstractmethod
    def resolve(self, record: TrialRecord | None) -> Any:
        """The value (``MISSING`` for an absent state path); raises :class:`RecordLacks`.

        >>> from agent_asserts.testing import demo_record
        >>> StatePath("/orders/A1049/status", initial=True).resolve(demo_record())
        'paid'
        """

    @abc.abstractmethod
    def label(self) -> str | None:
        """What names the result after the colon (``reply``, ``/orders/A1/status``), if any.

        >>> RecordField("reply").label(), LiteralValue(42).label()
        ('reply', None)
        """

    def call_prefix(self) -> str:
        """How the call that reads this source starts in a description: ``state('/a').``.

        >>> StatePath("/a").call_prefix(), LiteralValue(1).call_prefix()
        ("state('/a').", '')
        """
        return ""

    @abc.abstractmethod
    def to_data(self) -> dict[str, Any]:
        """The keys of the native ``expect:`` mapping that name this source.

        >>> StatePath("/orders/A1049/status", initial=True).to_data()
        {'value': '/orders/A1049/status', 'initial': True}
        """


@attrs.frozen
class LiteralValue(ValueSource):
    """A value given directly: ``ctx.expect(run.reply)``.

    >>> LiteralValue(3).resolve(None)
    3
    """

    value: Any

    def resolve(self, record: TrialRecord | None) -> Any:
        return self.value

    def label(self) -> str | None:
        return None

    def to_data(self) -> dict[str, Any]:
        return {"literal": value_to_data(self.value)}


@attrs.frozen
class RecordField(ValueSource):
    """A run-level field of the record: one of :data:`RECORD_FIELDS`.

    >>> RecordField("usage.total_tokens").label()
    'usage.total_tokens'
    """

    name: str = attrs.field()

    @name.validator
    def _known(self, attribute: attrs.Attribute[str], value: str) -> None:
        if value not in RECORD_FIELDS:
            allowed = ", ".join(repr(f) for f in RECORD_FIELDS)
            raise ValueError(
                f"'value' must be one of {allowed} or a JSON Pointer into final_state "
                f"(got {value!r})"
            )

    def resolve(self, record: TrialRecord | None) -> Any:
        if record is None:
            raise RecordLacks("no record to read from")
        if self.name.startswith("usage."):
            usage = record.usage
            value = None if usage is None else getattr(usage, self.name.split(".", 1)[1])
            if value is None:
                raise RecordLacks(f"the record has no {self.name}")
            return value
        value = getattr(record, self.name)
        if value is None:
            raise RecordLacks(f"the record has no {self.name}")
        return list(value) if self.name == "errors" else value

    def label(self) -> str | None:
        return self.name

    def call_prefix(self) -> str:
        return f"expect({self.name})."

    def to_data(self) -> dict[str, Any]:
        return {"value": self.name}


@attrs.frozen
class StatePath(ValueSource):
    """The value at a JSON Pointer into the final (or, with ``initial``, initial) state.

    >>> StatePath("/orders/A1049/status", initial=True).label()
    'initial_state/orders/A1049/status'
    """

    pointer: str = attrs.field()
    initial: bool = False

    @pointer.validator
    def _valid(self, attribute: attrs.Attribute[str], value: str) -> None:
        parse_pointer(value)

    def resolve(self, record: TrialRecord | None) -> Any:
        if record is None:
            raise RecordLacks("no record to read from")
        which = "initial_state" if self.initial else "final_state"
        state = record.initial_state if self.initial else record.final_state
        if state is None:
            raise RecordLacks(f"the record has no {which}")
        return resolve(state, self.pointer)

    def label(self) -> str | None:
        return ("initial_state" if self.initial else "") + self.pointer

    def call_prefix(self) -> str:
        initial = ", initial=True" if self.initial else ""
        return f"state({self.pointer!r}{initial})."

    def to_data(self) -> dict[str, Any]:
        data: dict[str, Any] = {"value": self.pointer}
        if self.initial:
            data["initial"] = True
        return data


def source_for(value: str, *, initial: bool = False) -> ValueSource:
    """The source the native dialect's ``expect.value`` names.

    >>> source_for("/a/b")
    StatePath(pointer='/a/b', initial=False)
    >>> source_for("reply")
    RecordField(name='reply')
    """
    if value.startswith("/") or value == "":
        return StatePath(value, initial=initial)
    if initial:
        raise ValueError("'initial' applies only to a JSON Pointer 'value'")
    return RecordField(value)


__all__ = [
    "RECORD_FIELDS",
    "LiteralValue",
    "RecordField",
    "RecordLacks",
    "StatePath",
    "ValueSource",
    "source_for",
]
