"""A wrong argument type to any public fluent method, ``M.*`` factory or ``on.*`` selector is a
``TypeError`` naming the method, the parameter and what it accepts, raised at the boundary.

The walk is generated from the signatures: a method added later is covered without a change
here. Every parameter whose type hint is not ``Any`` gets a value of a private class nothing
accepts; the other arguments get values of the right types.
"""

from __future__ import annotations

import collections.abc as abc
import inspect
import re
import sys
import traceback
import typing
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

import agent_asserts
from agent_asserts import (
    AssertionHandle,
    AssertionResult,
    Count,
    EvalContext,
    M,
    TrialRecord,
    ValueExpectation,
    on,
)
from agent_asserts.checks.base import Check
from agent_asserts.checks.traces import StepCount
from agent_asserts.fluent.handles import AssertionHandle as _Handle
from agent_asserts.matching import Matcher
from agent_asserts.record import Button, Event
from agent_asserts.results import Severity
from agent_asserts.selectors import Selector, ToolSelector
from agent_asserts.testing import demo_record

BOUNDARY = str(Path(agent_asserts.__file__).parent / "_boundary.py")
NAMES = {
    "AssertionHandle": _Handle, "Button": Button, "Check": Check, "Event": Event,
    "EvalContext": EvalContext, "Matcher": Matcher, "Selector": Selector,
    "ToolSelector": ToolSelector, "TrialRecord": TrialRecord,
}  # fmt: skip
INSTANCES: dict[type, Callable[[], Any]] = {
    Selector: lambda: on.tool("refunds_issue"),
    ToolSelector: lambda: on.tool("refunds_issue"),
    Count: lambda: Count.at_least(1),
    Matcher: M.anything,
    Check: lambda: StepCount(1),
    AssertionResult: lambda: AssertionResult(name="x", status="pass", score=1.0),
    TrialRecord: demo_record,
    Severity: lambda: Severity.GATE,
    Button: lambda: Button("ok"),
}


class Wrong:
    """A type no parameter accepts."""

    def __repr__(self) -> str:
        return "<wrong>"


def _members(hint: Any) -> tuple[Any, ...]:
    if typing.get_origin(hint) is typing.Union or isinstance(hint, type(int | None)):
        return typing.get_args(hint)
    return (hint,)


def valid(hint: Any) -> Any:
    """A value of the right type for ``hint`` (the first member of a union that is not None)."""
    if hint is Any:
        return []  # a required `Any` parameter: matches_trajectory's reference
    member = next(m for m in _members(hint) if m is not type(None))
    origin = typing.get_origin(member) or member
    if origin is typing.Literal:
        return typing.get_args(member)[0]
    simple = {str: "refunds_issue", int: 1, float: 1.0, bool: True}
    if member in simple:
        return simple[member]
    if origin is abc.Callable:
        return lambda *args: True
    if origin in (abc.Mapping, dict):
        return {}
    if origin in (abc.Sequence, abc.Iterable, list, tuple):
        return []
    return INSTANCES[member]()


def accepted_words(hint: Any) -> list[str]:
    """A word the message must show for each member of ``hint``."""
    words = []
    for member in _members(hint):
        origin = typing.get_origin(member) or member
        if origin is typing.Literal:
            words.extend(repr(v) for v in typing.get_args(member))
        elif member is type(None):
            words.append("None")
        elif origin is abc.Callable:
            words.append("callable")
        elif origin in (abc.Mapping, dict):
            words.append("mapping")
        elif origin in (abc.Sequence, list):
            words.append("sequence")
        elif origin in (abc.Iterable, tuple):
            words.append(origin.__name__.lower())
        else:
            words.append(member.__name__)
    return words


def _handle() -> AssertionHandle:
    return EvalContext(demo_record()).step_count(4)


def _expectation() -> ValueExpectation:
    return EvalContext(demo_record()).expect("Refund issued").includes("Refund")


def boundary_callables() -> Iterator[tuple[str, Callable[..., Any], Callable[..., Any]]]:
    """(label, the callable to call, the original function whose hints to read)."""
    owners: list[tuple[str, type, Callable[[], Any]]] = [
        ("EvalContext", EvalContext, lambda: EvalContext(demo_record())),
        ("AssertionHandle", AssertionHandle, _handle),
        ("ValueExpectation", ValueExpectation, _expectation),
    ]
    for label, cls, make in owners:
        for name in sorted(dir(cls)):
            attr = inspect.getattr_static(cls, name)
            if name.startswith("_") or not inspect.isfunction(attr):
                continue
            owner = label if name in vars(cls) else "AssertionHandle"
            yield f"{owner}.{name}", getattr(make(), name), inspect.unwrap(attr)
    for name, attr in sorted(vars(M).items()):
        if isinstance(attr, staticmethod):
            yield f"M.{name}", getattr(M, name), inspect.unwrap(attr.__func__)
    for name, attr in sorted(vars(on).items()):
        if isinstance(attr, type):
            yield f"on.{name}", attr, inspect.unwrap(attr.__init__)
        elif isinstance(attr, staticmethod):
            yield f"on.{name}", getattr(on, name), inspect.unwrap(attr.__func__)


def _hints(fn: Callable[..., Any]) -> dict[str, Any]:
    module = sys.modules[fn.__module__] if fn.__name__ != "__init__" else None
    globalns = vars(module) if module else vars(sys.modules[_init_owner(fn).__module__])
    return typing.get_type_hints(fn, globalns=globalns, localns=NAMES)


def _init_owner(init: Callable[..., Any]) -> type:
    return next(c for c in vars(on).values() if (isinstance(c, type) and c.__init__ is init)
                or (isinstance(c, type) and inspect.unwrap(c.__init__) is init))  # fmt: skip


def misuses() -> Iterator[Any]:
    for label, call, original in boundary_callables():
        hints = _hints(original)
        params = [p for p in inspect.signature(original).parameters.values() if p.name != "self"]
        for param in params:
            hint = hints.get(param.name, Any)
            if hint is Any:
                continue
            yield pytest.param(label, call, params, hints, param.name, id=f"{label}:{param.name}")


def _arguments(
    params: list[inspect.Parameter], hints: dict[str, Any], wrong: str
) -> tuple[list[Any], dict[str, Any]]:
    args: list[Any] = []
    kwargs: dict[str, Any] = {}
    for p in params:
        bad = p.name == wrong
        if p.kind is p.VAR_POSITIONAL:
            args.append(Wrong() if bad else valid(hints[p.name]))
        elif p.kind is p.VAR_KEYWORD:
            if bad:
                kwargs["extra"] = Wrong()
        elif bad or p.default is p.empty:
            value = Wrong() if bad else valid(hints.get(p.name, str))
            if p.kind is p.KEYWORD_ONLY:
                kwargs[p.name] = value
            else:
                args.append(value)
        elif p.kind is not p.KEYWORD_ONLY:
            args.append(p.default)
    return args, kwargs


@pytest.mark.parametrize(("label", "call", "params", "hints", "name"), list(misuses()))
def test_a_wrong_type_names_the_method_the_parameter_and_what_it_accepts(
    label: str,
    call: Callable[..., Any],
    params: list[inspect.Parameter],
    hints: dict[str, Any],
    name: str,
) -> None:
    args, kwargs = _arguments(params, hints, name)
    with pytest.raises(TypeError) as info:
        call(*args, **kwargs)
    message = str(info.value)
    kind = next(p.kind for p in params if p.name == name)
    shown = {
        inspect.Parameter.VAR_POSITIONAL: f"'{name}[0]'",
        inspect.Parameter.VAR_KEYWORD: f"'{name}['extra']'",
    }.get(kind, f"'{name}'")
    assert message.startswith(f"{label}(): {shown} must be "), message
    assert message.endswith(", got Wrong (<wrong>)"), message
    accepted = message.split(" must be ", 1)[1].rsplit(", got ", 1)[0]
    for word in accepted_words(hints[name]):
        assert word in accepted, (word, message)
    last = traceback.extract_tb(info.value.__traceback__)[-1]
    assert last.filename == BOUNDARY, last


def test_the_walk_covers_every_public_method_factory_and_selector() -> None:
    labels = {label for label, _, _ in boundary_callables()}
    fluent = {n for n in dir(EvalContext) if not n.startswith("_")} - {"results", "logs"}
    assert {f"EvalContext.{n}" for n in fluent} <= labels
    assert {f"M.{n}" for n in vars(M) if not n.startswith("_")} <= labels
    assert {f"on.{n}" for n in vars(on) if not n.startswith("_")} <= labels
    checked = {p.values[0] for p in misuses()}  # type: ignore[attr-defined]
    assert len(checked) >= 80, len(checked)


ctx = EvalContext(demo_record())

EXACT: list[tuple[Callable[[], Any], str]] = [
    (lambda: ctx.called_tool(3), "EvalContext.called_tool(): 'name' must be str, got int (3)"),
    (
        lambda: ctx.called_tool("x", count="1"),
        "EvalContext.called_tool(): 'count' must be int, Count or None, got str ('1')",
    ),
    (lambda: ctx.max_steps(True), "EvalContext.max_steps(): 'n' must be int, got bool (True)"),
    (
        lambda: ctx.memory_was_set(3),
        "EvalContext.memory_was_set(): 'name' must be str or sequence of (str or mapping), "
        "got int (3)",
    ),
    (
        lambda: ctx.memory_was_set(["a.x", 3]),
        "EvalContext.memory_was_set(): 'name[1]' must be str or mapping, got int (3)",
    ),
    (
        lambda: ctx.tool_order("refunds_lookup", 3),
        "EvalContext.tool_order(): 'names[1]' must be str, got int (3)",
    ),
    (
        lambda: ctx.matches_trajectory(["a"], tools={3: "exact"}),
        "EvalContext.matches_trajectory(): a key of 'tools' must be str, got int (3)",
    ),
    (
        lambda: ctx.matches_trajectory(["a"], order=2),
        "EvalContext.matches_trajectory(): 'order' must be 'strict', 'in_order', 'unordered', "
        "'subset' or 'superset', got int (2)",
    ),
    (
        lambda: ctx.event("memory", predicate="x"),
        "EvalContext.event(): 'predicate' must be callable or None, got str ('x')",
    ),
    (
        lambda: ctx.step_count(4).at_least("0.5"),
        "AssertionHandle.at_least(): 'threshold' must be int or float, got str ('0.5')",
    ),
    (
        lambda: ctx.expect("a").similarity(3),
        "ValueExpectation.similarity(): 'text' must be str, got int (3)",
    ),
    (lambda: M.gt("3"), "M.gt(): 'bound' must be int or float, got str ('3')"),
    (lambda: M.unordered("ab"), "M.unordered(): 'items' must be sequence, got str ('ab')"),
    (
        lambda: on.tool("x", is_error="yes"),
        "on.tool(): 'is_error' must be bool or None, got str ('yes')",
    ),
    (
        lambda: on.memory_set(["a.x"]),
        "on.memory_set(): 'name' must be str, got list (['a.x'])",
    ),
    (
        lambda: ctx.called_tool("x" * 80 + "y", count=["a" * 100]),
        "EvalContext.called_tool(): 'count' must be int, Count or None, got list (['"
        + "a" * 57
        + "…)",
    ),
]


@pytest.mark.parametrize(("call", "message"), EXACT)
def test_exact_messages(call: Callable[[], Any], message: str) -> None:
    with pytest.raises(TypeError) as info:
        call()
    assert str(info.value) == message
    assert traceback.extract_tb(info.value.__traceback__)[-1].filename == BOUNDARY


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: ctx.called_tool(""), "'name' must be a non-empty tool name (got '')"),
        (lambda: M.regex("("), "invalid regular expression '(': missing ), unterminated "
         "subpattern at position 0"),
        (
            lambda: ctx.matches_trajectory(["a"], order="sideways"),
            "matches_trajectory() parameter 'order' takes one of 'strict', 'in_order', "
            "'unordered', 'subset', 'superset' (got 'sideways')",
        ),
    ],
)  # fmt: skip
def test_a_right_type_with_a_wrong_value_is_still_a_value_error(
    call: Callable[[], Any], message: str
) -> None:
    with pytest.raises(ValueError, match=f"^{re.escape(message)}$"):
        call()


def test_the_right_types_pass_and_subclasses_are_accepted() -> None:
    class Name(str):
        pass

    assert ctx.called_tool(Name("refunds_issue")).result.passed
    assert ctx.called_tool(Name("refunds_issue")).result.passed  # learnt: the fast path
    assert ctx.expect(2).equals(2).at_least(1).result.passed
    assert M.between(1, 2.5).matches(2)


def test_signatures_and_docstrings_are_the_originals() -> None:
    assert str(inspect.signature(EvalContext.max_steps)) == "(self, n: 'int') -> 'AssertionHandle'"
    assert "At most ``n`` steps." in (EvalContext.max_steps.__doc__ or "")
    assert str(inspect.signature(on.memory_set)).startswith("(name: 'str'")
