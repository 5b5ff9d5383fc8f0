"""The YAML alias-expansion budget bounds alias expansion only: a long document without aliases
loads, and a 'billion laughs' document is refused before anything is built."""

from __future__ import annotations

import json

import pytest

from agent_asserts.loaders import LoadError, loads, source
from agent_asserts.loaders.source import MAX_ALIAS_NODES_ENV


def _long_suite(cases: int) -> str:
    lines = ["name: many", "cases:"]
    for i in range(cases):
        lines += [f"  - name: case {i}", "    checks:", "      - max_tool_calls: 5"]
    return "\n".join(lines) + "\n"


def test_a_long_document_is_not_an_alias_bomb(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(MAX_ALIAS_NODES_ENV, "50")
    assert len(loads(_long_suite(40)).cases) == 40


def test_a_flat_list_past_the_budget_loads_from_yaml_and_json(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv(MAX_ALIAS_NODES_ENV, "1000")
    replies = [f"r{i}" for i in range(1100)]
    data = {"checks": [{"expect": {"value": "reply", "equals": replies}}]}
    from_json = loads(json.dumps(data))
    from_yaml = loads(
        "checks:\n  - expect:\n      value: reply\n      equals: [" + ", ".join(replies) + "]\n"
    )
    assert from_json.cases[0].checks == from_yaml.cases[0].checks


def test_alias_expansion_past_the_budget_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(MAX_ALIAS_NODES_ENV, "50")
    text = "a0: &a0 [x, x, x, x, x, x, x, x, x, x]\na1: &a1 [" + ", ".join(["*a0"] * 10) + "]\n"
    with pytest.raises(LoadError) as caught:
        loads(text)
    assert str(caught.value) == (
        "<string>: alias expansion: the aliases of this document would add more than 50 nodes "
        f"(a 'billion laughs' document; set {MAX_ALIAS_NODES_ENV} to change the limit)"
    )


def test_a_billion_laughs_is_refused_before_anything_is_built(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def never(*args: object) -> object:
        raise AssertionError("the document was built")

    monkeypatch.setattr(source._Builder, "build", never)
    lines = ['a0: &a0 ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]']
    lines += [f"a{i}: &a{i} [" + ",".join([f"*a{i - 1}"] * 9) + "]" for i in range(1, 10)]
    with pytest.raises(LoadError, match="alias expansion: the aliases of this document would add"):
        loads("\n".join(lines) + "\n")
