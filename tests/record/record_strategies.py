"""Hypothesis strategies for records (imported by the record tests; not a test module)."""

from __future__ import annotations

from typing import Any

from hypothesis import strategies as st

from agent_asserts.record.event import BLOCK_TRANSITIONS, SKILL_TRANSITIONS

scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(2**53), max_value=2**53),
    st.floats(allow_nan=False, allow_infinity=False),
    st.text(max_size=8),
)
keys = st.text(alphabet="ab~/c d", max_size=4)
json_values = st.recursive(
    scalars,
    lambda inner: st.one_of(st.lists(inner, max_size=4), st.dictionaries(keys, inner, max_size=4)),
    max_leaves=12,
)
json_objects = st.dictionaries(keys, json_values, max_size=4)
names = st.text(alphabet="abcxyz._-", min_size=1, max_size=6)
opt_str = st.one_of(st.none(), st.text(max_size=5))


def _optional(draw: st.DrawFn, out: dict[str, Any], key: str, strategy: Any) -> None:
    if draw(st.booleans()):
        out[key] = draw(strategy)


@st.composite
def payloads(draw: st.DrawFn, kind: str, event_type: str | None) -> dict[str, Any]:
    """A valid payload dict for ``kind``."""
    out: dict[str, Any] = {}
    if kind == "message":
        _optional(draw, out, "text", st.sampled_from(["", "hi", "/cmd", " refund ", "ok"]))
        _optional(draw, out, "utter_name", opt_str)
        _optional(
            draw,
            out,
            "buttons",
            st.lists(
                st.fixed_dictionaries(
                    {"title": st.text(max_size=3)}, optional={"payload": opt_str}
                ),
                max_size=2,
            ),
        )
        _optional(draw, out, "lang", json_values)
    elif kind == "tool_call":
        out["name"] = draw(names)
        _optional(draw, out, "arguments", json_values)
        _optional(draw, out, "result", json_values)
        _optional(draw, out, "is_error", st.booleans())
        _optional(draw, out, "source", st.sampled_from(["local", "mcp"]))
        for key in ("mcp_server", "skill_id", "call_id", "error_message"):
            _optional(draw, out, key, opt_str)
        _optional(draw, out, "latency_ms", json_values)
    elif kind == "memory":
        out["name"] = draw(names)
        if event_type == "set":
            out["value"] = draw(json_values)
    elif kind == "skill":
        out["skill_id"] = draw(names)
        _optional(draw, out, "step_id", opt_str)
    elif kind == "ordered_block":
        out["skill_id"] = draw(names)
        out["block_id"] = draw(names)
        _optional(draw, out, "step_id", opt_str)
    elif kind == "delegation":
        out["subagent"] = draw(names)
        _optional(draw, out, "output", json_values)
    else:
        out = draw(json_objects)
    return out


EVENT_TYPES = {
    "memory": st.sampled_from(["set", "clear"]),
    "skill": st.sampled_from(SKILL_TRANSITIONS),
    "ordered_block": st.sampled_from(BLOCK_TRANSITIONS),
    "delegation": st.one_of(st.none(), st.sampled_from(["completed", "failed"])),
}
KINDS = ["message", "tool_call", "memory", "skill", "ordered_block", "delegation", "audit", "step"]


@st.composite
def event_dicts(draw: st.DrawFn) -> dict[str, Any]:
    """A valid event dict (without ``event_id``, so ids never collide)."""
    kind = draw(st.sampled_from(KINDS))
    event_type = draw(EVENT_TYPES.get(kind, st.one_of(st.none(), st.text(max_size=4))))
    out: dict[str, Any] = {"kind": kind}
    if event_type is not None:
        out["event_type"] = event_type
    _optional(draw, out, "actor_ref", st.sampled_from(["user", "agent", "tool", None]))
    _optional(draw, out, "turn", st.one_of(st.none(), st.integers(0, 5)))
    _optional(
        draw, out, "wall_time", st.one_of(st.text(max_size=5), st.integers(0, 9), st.floats(0, 9))
    )
    _optional(draw, out, "monotonic_time", st.one_of(st.integers(0, 9), st.floats(0, 9)))
    for key in ("surface", "audience", "phase", "operation_ref", "correlation_id", "status"):
        _optional(draw, out, key, opt_str)
    _optional(draw, out, "entity_refs", st.lists(st.text(max_size=4), max_size=3))
    if draw(st.booleans()) or kind in (
        "tool_call",
        "memory",
        "skill",
        "ordered_block",
        "delegation",
    ):
        out["payload"] = draw(payloads(kind, event_type))
    return out


@st.composite
def record_dicts(draw: st.DrawFn) -> dict[str, Any]:
    """A valid record dict."""
    out: dict[str, Any] = {"events": draw(st.lists(event_dicts(), max_size=8))}
    _optional(draw, out, "initial_state", json_values)
    _optional(draw, out, "final_state", json_values)
    _optional(draw, out, "status", opt_str)
    _optional(draw, out, "reply", opt_str)
    _optional(draw, out, "steps", st.one_of(st.none(), st.integers(0, 50)))
    _optional(
        draw,
        out,
        "usage",
        st.fixed_dictionaries(
            {},
            optional={
                k: st.one_of(st.none(), st.integers(0, 999))
                for k in ("input_tokens", "output_tokens", "total_tokens")
            },
        ),
    )
    _optional(draw, out, "errors", st.lists(json_values, max_size=2))
    _optional(draw, out, "surfaces", st.lists(st.sampled_from(KINDS), max_size=3))
    _optional(
        draw,
        out,
        "parse_errors",
        st.lists(
            st.fixed_dictionaries(
                {"position": st.text(max_size=4), "reason": st.text(max_size=4)},
                optional={"item": json_values, "source": opt_str},
            ),
            max_size=2,
        ),
    )
    _optional(draw, out, "metadata", json_objects)
    return out
