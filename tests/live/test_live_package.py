"""The package's public names, and what importing it costs."""

from __future__ import annotations

import subprocess
import sys

import pytest

import agent_asserts.live


def test_public_names_resolve() -> None:
    assert sorted(agent_asserts.live.__all__) == ["EvaluatingSpanProcessor", "LiveStats"]
    for name in agent_asserts.live.__all__:
        assert getattr(agent_asserts.live, name).__name__ == name


def test_an_unknown_name_is_an_attribute_error() -> None:
    with pytest.raises(AttributeError, match="has no attribute 'nope'"):
        agent_asserts.live.nope  # noqa: B018


def test_importing_the_package_imports_no_tracing_library() -> None:
    code = (
        "import sys, agent_asserts.live\n"
        "print(sorted(m for m in ('opentelemetry', 'agents') if m in sys.modules))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
