"""TraceBuffer: bounded, least recently active evicted first, timeouts, late spans."""

from __future__ import annotations

from agent_asserts.live import TraceBuffer


def test_the_least_recently_active_trace_is_evicted() -> None:
    buf: TraceBuffer[str] = TraceBuffer(max_open_traces=2, trace_timeout=100.0)
    buf.add("a", "a1", root=False, now=0.0)
    buf.add("b", "b1", root=False, now=1.0)
    buf.add("a", "a2", root=False, now=2.0)  # a is now the most recently active
    (closed,) = buf.add("c", "c1", root=False, now=3.0)
    assert (closed.trace_id, closed.spans, closed.reason) == ("b", ["b1"], "evicted")
    assert len(buf) == 2


def test_a_root_closes_its_trace_with_every_span() -> None:
    buf: TraceBuffer[str] = TraceBuffer(max_open_traces=5, trace_timeout=100.0)
    buf.add("a", "tool", root=False, now=0.0)
    (closed,) = buf.add("a", "root", root=True, now=1.0)
    assert (closed.spans, closed.root, closed.complete) == (["tool", "root"], "root", True)


def test_timeouts_close_only_the_quiet_traces_oldest_first() -> None:
    buf: TraceBuffer[str] = TraceBuffer(max_open_traces=5, trace_timeout=10.0)
    buf.add("a", "a1", root=False, now=0.0)
    buf.add("b", "b1", root=False, now=5.0)
    buf.add("c", "c1", root=False, now=9.0)
    assert [c.trace_id for c in buf.expire(15.0)] == ["a", "b"]
    assert len(buf) == 1


def test_drain_closes_everything_and_late_spans_are_counted() -> None:
    buf: TraceBuffer[str] = TraceBuffer(max_open_traces=5, trace_timeout=10.0)
    buf.add("a", "a1", root=False, now=0.0)
    buf.add("b", "b1", root=False, now=0.0)
    assert [(c.trace_id, c.reason) for c in buf.drain()] == [("a", "shutdown"), ("b", "shutdown")]
    assert buf.add("a", "a2", root=True, now=1.0) == []
    assert (buf.late, buf.opened, len(buf)) == (1, 2, 0)


def test_closed_ids_are_remembered_within_the_bound() -> None:
    buf: TraceBuffer[str] = TraceBuffer(max_open_traces=1, trace_timeout=10.0)
    for name in "abc":
        buf.add(name, "root", root=True, now=0.0)
    buf.add("a", "again", root=False, now=1.0)  # "a" was forgotten: a new trace
    assert (buf.late, len(buf)) == (0, 1)
