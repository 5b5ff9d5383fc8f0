"""Argument-type checks at the public boundary: what they add to a call on the happy path.

Each public fluent method, ``M.*`` factory and ``on.*`` constructor runs through a wrapper
generated from its signature (``agent_asserts._boundary``) that checks its arguments' types
before calling the original. For representative calls this reports:

* **added**: the wrapper's own cost — the wrapper generated for the method's signature around
  a function that does nothing, minus calling that function directly with the same arguments
  (the figure the target is about: what a call pays for its checks);
* **end to end**: the whole call through the boundary and straight to the original function
  (``inspect.unwrap``), for scale (a difference of a few hundred ns is within their noise).

Each side is the best of interleaved rounds (``timeit`` style).

Target: the checks add well under 1 µs per call (≤ 0.5 µs for every case).

Usage: ``python benchmarks/argument_checks.py [--rounds 7] [--number 20000]``.
"""

from __future__ import annotations

import argparse
import functools
import inspect
import sys
import timeit
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _harness import Targets

from agent_asserts import EvalContext, M
from agent_asserts._boundary import checked_function
from agent_asserts.context import _hint_names
from agent_asserts.selectors.calls import ToolSelector
from agent_asserts.testing import demo_record

TARGET_NS = 500.0


def _noop(*args: Any, **kwargs: Any) -> None:
    return None


def _wrapper_around_noop(
    fn: Callable[..., Any], label: str, globalns: dict[str, Any]
) -> Callable[..., Any]:
    """The wrapper the boundary generates for ``fn``'s signature, around a function that does
    nothing."""

    def noop(*args: Any, **kwargs: Any) -> None:
        return None

    noop.__signature__ = inspect.signature(fn)  # type: ignore[attr-defined]
    noop.__name__ = fn.__name__
    return checked_function(noop, label, globalns, _hint_names())


Case = tuple[Callable[..., Any], str, dict[str, Any], tuple[Any, ...], dict[str, Any]]


def cases() -> dict[str, Case]:
    """name -> (the guarded callable, its label, the namespace its hints resolve in, positional
    and keyword arguments)."""
    ctx = EvalContext(demo_record())
    selectors = vars(sys.modules[ToolSelector.__module__])

    def method(name: str) -> tuple[Callable[..., Any], str, dict[str, Any]]:
        fn = getattr(EvalContext, name)
        return fn, f"EvalContext.{name}", inspect.unwrap(fn).__globals__

    return {
        "ctx.step_count(4)": (*method("step_count"), (ctx, 4), {}),
        "ctx.called_tool(name, arguments=, count=)": (
            *method("called_tool"), (ctx, "refunds_issue"),
            {"arguments": {"orderId": "A1049"}, "count": 1}),
        "ctx.tool_order(a, b)": (*method("tool_order"), (ctx, "refunds_lookup", "refunds_issue"),
                                 {}),
        "ctx.memory_was_set([a, b])": (*method("memory_was_set"),
                                       (ctx, ["order.id", "order.status"]), {}),
        "M.gt(3)": (M.gt, "M.gt", vars(sys.modules[M.__module__]), (3,), {}),
        "on.tool(name, is_error=)": (
            ToolSelector.__init__, "on.tool", selectors,
            (object.__new__(ToolSelector), "refunds_issue"), {"is_error": False}),
    }  # fmt: skip


def measure(rounds: int = 7, number: int = 20_000) -> dict[str, dict[str, float]]:
    """Seconds per call by case: ``added`` (the wrapper's own cost), ``checked`` and
    ``original`` (the whole call with and without the checks)."""
    out: dict[str, dict[str, float]] = {}
    for name, (guarded, label, globalns, args, kwargs) in cases().items():
        guarded(*args, **kwargs)  # each boundary wrapper is generated on its first call
        guarded = _current(guarded, label)
        original = inspect.unwrap(guarded)
        wrapper = _wrapper_around_noop(original, label, globalns)
        sides = {
            side: functools.partial(fn, *args, **kwargs)
            for side, fn in (
                ("wrapper", wrapper), ("bare", _noop), ("checked", guarded),
                ("original", original),
            )
        }  # fmt: skip
        best = dict.fromkeys(sides, float("inf"))
        for _ in range(rounds):
            for side, call in sides.items():
                best[side] = min(best[side], timeit.timeit(call, number=number) / number)
        out[name] = {
            "added": best["wrapper"] - best["bare"],
            "checked": best["checked"],
            "original": best["original"],
        }
    return out


def _current(guarded: Callable[..., Any], label: str) -> Callable[..., Any]:
    """The generated wrapper now installed for ``label`` (it replaced the first-call stub)."""
    owner, _, attr = label.partition(".")
    if owner == "on":
        return ToolSelector.__init__  # type: ignore[misc]
    return getattr({"EvalContext": EvalContext, "M": M}[owner], attr)  # type: ignore[no-any-return]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--number", type=int, default=20_000)
    args = parser.parse_args(argv)
    targets = Targets()
    print("| call | added by the checks | end to end: with checks | original |")
    print("| --- | --- | --- | --- |")
    for name, figures in measure(args.rounds, args.number).items():
        added = figures["added"] * 1e9
        checked, original = figures["checked"] * 1e6, figures["original"] * 1e6
        print(f"| `{name}` | {added:.0f} ns | {checked:.2f} µs | {original:.2f} µs |")
        targets.check(f"added by the checks: {name}", added <= TARGET_NS, f"{added:.0f} ns")
    return targets.exit_code()


if __name__ == "__main__":
    raise SystemExit(main())
