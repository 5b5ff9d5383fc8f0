"""The YAML node budget bounds alias expansion only: a long document without aliases loads."""

from __future__ import annotations

import pytest

from agent_asserts.loaders import LoadError, loads, yaml_reader


def test_a_long_document_is_not_an_alias_bomb(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(yaml_reader, "_MAX_NODES", 50)
    lines = ["name: many", "cases:"]
    for i in range(40):
        lines += [f"  - name: case {i}", "    checks:", "      - max_tool_calls: 5"]
    assert len(loads("\n".join(lines) + "\n").cases) == 40


def test_alias_expansion_past_the_budget_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(yaml_reader, "_MAX_NODES", 50)
    text = "a0: &a0 [x, x, x, x, x, x, x, x, x, x]\na1: &a1 [" + ", ".join(["*a0"] * 10) + "]\n"
    with pytest.raises(LoadError, match="nested too deeply"):
        loads(text)
