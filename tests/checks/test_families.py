"""A check family is named once: its check classes, its fluent mixin and its docs page agree.

Every registered check whose method a fluent mixin defines lives in one of its family's check
modules, the mixin is the family's, and the family's docs page documents the method.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from agent_asserts import fluent
from agent_asserts.checks import all_checks

DOCS = Path(__file__).resolve().parents[2] / "docs"

# family -> (its check modules, its fluent mixin)
FAMILIES: dict[str, tuple[tuple[str, ...], type]] = {
    "outcome": (("outcome",), fluent.OutcomeMethods),
    "trajectory": (
        ("tools", "trajectory", "sequencing", "trajectory_match"),
        fluent.TrajectoryMethods,
    ),
    "events": (("events",), fluent.EventMethods),
    "traces": (("traces",), fluent.TraceMethods),
    "state": (("state",), fluent.StateMethods),
    "conversation": (("conversation",), fluent.ConversationMethods),
}

# the checks EvalContext itself builds (a whole spec, a judge): documented on their own pages
BESIDE_THE_MIXINS = {"contract": "contract.md", "judge": "judges.md"}


def _family_of_method() -> dict[str, str]:
    owners: dict[str, str] = {}
    for family, (_, mixin) in FAMILIES.items():
        for name in vars(mixin):
            if not name.startswith("_"):
                assert name not in owners, f"{name} is in two mixins"
                owners[name] = family
    return owners


def test_every_fluent_mixin_is_one_family() -> None:
    assert {mixin.__name__ for _, mixin in FAMILIES.values()} == set(fluent.__all__)
    for family, (_, mixin) in FAMILIES.items():
        assert mixin.__module__ == f"agent_asserts.fluent.{family}"


@pytest.mark.parametrize("method", sorted(all_checks()))
def test_a_check_lives_in_its_mixin_s_family(method: str) -> None:
    cls = all_checks()[method]
    owners = _family_of_method()
    if method in BESIDE_THE_MIXINS:
        assert method not in owners
        assert f"{method}(" in (DOCS / BESIDE_THE_MIXINS[method]).read_text()
        return
    family = owners[method]
    modules, _ = FAMILIES[family]
    assert cls.__module__ in {f"agent_asserts.checks.{m}" for m in modules}, (
        f"{method}: {cls.__module__} is not a {family} module"
    )
    page = (DOCS / f"checks-{family}.md").read_text()
    # skill_resumed is also shown in `skill_cancelled/interrupted/resumed(`
    prefix, _, last = method.rpartition("_")
    shown = rf"`{method}[(`/]|`{prefix}_[a-z]+(/[a-z]+)*/{last}[/(]"
    assert re.search(shown, page), f"{method} not on checks-{family}.md"


def test_every_mixin_method_builds_a_registered_check() -> None:
    checks = all_checks()
    for method in _family_of_method():
        assert method in checks, method
