"""A dialect registered from outside the package: found by detection, listed after the
built-ins, which keep their documented order."""

from __future__ import annotations

import json
import subprocess
import sys
from typing import Any

from agent_asserts.loaders import Suite, loads, register_dialect
from agent_asserts.loaders.dialects import DIALECTS, dialects
from agent_asserts.loaders.nodes import Node, to_plain


def _build(doc: Node, ctx: Any) -> Suite:
    words = to_plain(doc)["politely"]
    return loads(json.dumps({"name": "polite", "checks": [{"message_includes": w} for w in words]}))


def test_a_dialect_registered_from_outside_is_detected_and_listed_last() -> None:
    register_dialect(
        "polite", detect=lambda data: "politely" in data, build=_build, shape="`politely: [...]`"
    )
    try:
        names = [d.name for d in dialects()]
        suite = loads("politely: [sorry]")
    finally:
        DIALECTS.remove("polite")
    assert names == ["mantle", "cxas", "sop", "contract", "native", "polite"]
    assert [e.check.describe() for e in suite.cases[0].entries] == ["message_includes('sorry')"]


def test_a_dialect_registered_before_the_first_load_replaces_the_built_in() -> None:
    # a fresh process: the table is not loaded yet when the replacement is registered
    code = (
        "from agent_asserts.loaders import register_dialect\n"
        "from agent_asserts.loaders.dialects import dialects, get_dialect\n"
        "register_dialect('native', detect=lambda d: False, build=None, shape='mine', order=50)\n"
        "print(get_dialect('native').shape, len(dialects()))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.split() == ["mine", "5"]
