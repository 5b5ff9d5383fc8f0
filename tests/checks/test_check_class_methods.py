"""The library's check classes share ``Check``'s ``repr``, ``==`` and ``hash`` (none compiles
its own at import: docs/design/architecture.md, "What a cold start imports"), and these behave
as attrs' generated methods do."""

from __future__ import annotations

import pickle

import attrs
import pytest

from agent_asserts.checks import all_checks
from agent_asserts.checks.base import Check
from agent_asserts.checks.expectations import Equals, LiteralValue
from agent_asserts.checks.tools import CalledTool
from agent_asserts.checks.traces import MaxSteps
from agent_asserts.matching import M


def _library_check_classes() -> list[type]:
    all_checks()  # imports every family
    found: list[type] = []
    stack: list[type] = [Check]
    while stack:
        sub: type
        for sub in stack.pop().__subclasses__():
            stack.append(sub)
            if sub.__module__.startswith("agent_asserts.checks.") and attrs.has(sub):
                found.append(sub)
    return found


@pytest.mark.parametrize("cls", _library_check_classes(), ids=lambda c: c.__qualname__)
def test_a_library_check_class_uses_the_shared_methods(cls: type) -> None:
    own = {"__repr__", "__eq__", "__hash__", "__slots__"} & set(vars(cls))
    assert not own, f"{cls.__qualname__} declares or generates {sorted(own)}"


def test_repr_is_attrs_form() -> None:
    assert repr(MaxSteps(4)) == "MaxSteps(n=4)"
    assert repr(CalledTool("refund", arguments={"id": 1}, count=2)) == (
        "CalledTool(name='refund', arguments={'id': 1}, result=None, is_error=None, count=2, "
        "source=None, mcp_server=None, skill_id=None, total=False)"
    )


def test_a_check_inside_itself_shows_as_dots() -> None:
    holder: list[object] = []
    check = Equals(LiteralValue(holder), "x")
    holder.append(check)
    assert repr(check) == "Equals(source=LiteralValue(value=[...]), expected='x')"


def test_equality_and_hash_follow_the_fields_and_the_class() -> None:
    assert MaxSteps(4) == MaxSteps(4) and hash(MaxSteps(4)) == hash(MaxSteps(4))
    assert MaxSteps(4) != MaxSteps(5)
    assert CalledTool("a", arguments=M.partial({"x": 1})) == CalledTool(
        "a", arguments=M.partial({"x": 1})
    )
    assert MaxSteps(4).__eq__(4) is NotImplemented
    assert len({MaxSteps(4), MaxSteps(4), MaxSteps(5)}) == 2
    with pytest.raises(TypeError, match="unhashable type: 'dict'"):
        hash(CalledTool("a", arguments={"x": 1}))


def test_a_check_survives_pickling_and_evolve() -> None:
    check = CalledTool("refund", count=1)
    assert pickle.loads(pickle.dumps(check)) == check
    assert attrs.evolve(check, count=2) == CalledTool("refund", count=2)
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        check.count = 3  # type: ignore[misc]
