"""Fixture files of the span formats and the reference scenario's expected facts."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

FIXTURES = Path(__file__).parent / "fixtures"

SPAN_FIXTURES: dict[str, list[str]] = {
    "otel": [
        "pydantic_ai_v5_spec.json",
        "pydantic_ai_v2_protobuf.json",
        "genai_events_v1_31.json",
        "genai_attributes_v1_41.json",
        "openinference.json",
    ],
    "openai-agents": ["agents_sdk_run.json"],
    "pydantic-ai": ["refund_run.json"],
    "langfuse": [
        "trace_full.json",
        "observations_v2.json",
        "otel_pydantic_ai_v2.json",
        "otel_pydantic_ai_v5.json",
    ],
}
"""The fixtures of this part, by format (each holds the reference scenario)."""

REPLY = "I couldn't issue the refund: the payment gateway timed out."


def fixture_path(fmt: str, name: str) -> Path:
    return FIXTURES / fmt / name


def load(fmt: str, name: str) -> Any:
    return json.loads(fixture_path(fmt, name).read_text(encoding="utf-8"))


def all_fixture_files() -> list[tuple[str, Path]]:
    """Every fixture of every format in ``fixtures/<format>/`` (this part's and the others')."""
    return [
        (directory.name, path)
        for directory in sorted(FIXTURES.iterdir())
        if directory.is_dir()
        for path in sorted(directory.glob("*.json"))
    ]


def span_cases() -> list[tuple[str, str]]:
    return [(fmt, name) for fmt, names in SPAN_FIXTURES.items() for name in names]
