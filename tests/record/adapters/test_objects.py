"""Objects straight from the SDKs: ``TrialRecord.from_trace`` reads what each library hands a
user (made here by the real libraries, offline), without ``model_dump()`` glue."""

from __future__ import annotations

import dataclasses
import datetime
import enum
import json
import uuid
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from agent_asserts import TrialRecord
from agent_asserts.record import RecordError
from agent_asserts.record.adapters.objects import plain_data


def calls(record: TrialRecord) -> list[tuple[str, Any, str | None]]:
    return [(e.payload.name, e.payload.arguments, e.payload.outcome) for e in record.tool_calls]


# -- OpenAI and Anthropic ---------------------------------------------------------------------


def test_chat_completion_messages_mixed_into_a_message_list() -> None:
    from openai.types.chat import ChatCompletion, ChatCompletionMessage

    completion = ChatCompletion.model_validate(
        {"id": "c", "object": "chat.completion", "created": 1796000000, "model": "gpt-4o",
         "choices": [{"index": 0, "finish_reason": "stop",
                      "message": {"role": "assistant", "content": "Refunded."}}],
         "usage": {"prompt_tokens": 30, "completion_tokens": 5, "total_tokens": 35}}
    )  # fmt: skip
    asked = ChatCompletionMessage.model_validate(
        {"role": "assistant", "content": None,
         "tool_calls": [{"id": "call_1", "type": "function",
                         "function": {"name": "issue_refund", "arguments": '{"order": "A1"}'}}]}
    )  # fmt: skip
    messages = [
        {"role": "user", "content": "refund A1"},
        asked,
        {"role": "tool", "tool_call_id": "call_1", "content": '{"ok": true}'},
        completion,
    ]
    record = TrialRecord.from_trace(messages)
    assert calls(record) == [("issue_refund", {"order": "A1"}, "succeeded")]
    assert record.tool_calls[0].payload.result == {"ok": True}
    # only the completion carries usage: the run has none (docs/record.md, partial data)
    models = [e.payload for e in record.events if e.kind == "model_call"]
    assert record.reply == "Refunded." and record.usage is None
    assert [None if m.usage is None else m.usage.output_tokens for m in models] == [None, 5]
    assert record.metadata["format"] == "openai-chat"


def test_a_responses_api_response_object() -> None:
    from openai.types.responses import Response

    response = Response.model_validate(
        {"id": "resp_1", "object": "response", "created_at": 1796000000, "model": "gpt-4.1",
         "parallel_tool_calls": True, "tool_choice": "auto", "tools": [],
         "output": [{"type": "function_call", "id": "fc_1", "call_id": "call_1",
                     "name": "lookup_order", "arguments": '{"order": "A1"}',
                     "status": "completed"}],
         "usage": {"input_tokens": 12, "output_tokens": 3, "total_tokens": 15,
                   "input_tokens_details": {"cached_tokens": 0, "cache_write_tokens": 0},
                   "output_tokens_details": {"reasoning_tokens": 0}}}
    )  # fmt: skip
    record = TrialRecord.from_trace(response)
    assert calls(record) == [("lookup_order", {"order": "A1"}, "pending")]
    assert record.metadata["format"] == "openai-responses"
    assert record.usage.input_tokens == 12


def test_anthropic_message_objects_in_a_conversation() -> None:
    from anthropic.types import Message

    message = Message.model_validate(
        {"id": "msg_1", "type": "message", "role": "assistant", "model": "claude-sonnet-4-5",
         "content": [{"type": "text", "text": "Looking it up."},
                     {"type": "tool_use", "id": "toolu_1", "name": "lookup_order",
                      "input": {"order": "A1"}}],
         "stop_reason": "tool_use", "usage": {"input_tokens": 20, "output_tokens": 9}}
    )  # fmt: skip
    record = TrialRecord.from_trace(
        {"messages": [{"role": "user", "content": "where is A1?"}, message,
                      {"role": "user", "content": [{"type": "tool_result",
                                                    "tool_use_id": "toolu_1",
                                                    "content": "shipped"}]}]}
    )  # fmt: skip
    assert calls(record) == [("lookup_order", {"order": "A1"}, "succeeded")]
    assert record.metadata["format"] == "anthropic"


# -- LangChain, LangGraph ---------------------------------------------------------------------


def _lc_messages() -> list[Any]:
    from langchain_core.messages import AIMessage, HumanMessage, ToolMessage

    return [
        HumanMessage("refund A1"),
        AIMessage("", tool_calls=[{"name": "issue_refund", "args": {"order": "A1"}, "id": "c1"}]),
        ToolMessage("gateway timed out", tool_call_id="c1", status="error"),
        AIMessage("It failed."),
    ]


def test_langchain_messages_as_they_are() -> None:
    record = TrialRecord.from_trace(_lc_messages())
    assert calls(record) == [("issue_refund", {"order": "A1"}, "failed")]
    assert (record.reply, record.metadata["format"]) == ("It failed.", "langchain")


def test_langgraph_state_from_a_real_graph() -> None:
    from langchain_core.messages import AIMessage
    from langgraph.graph import END, START, MessagesState, StateGraph

    def agent(state: MessagesState) -> dict[str, Any]:
        return {"messages": [AIMessage("Done.")]}

    graph = StateGraph(MessagesState)
    graph.add_node("agent", agent)
    graph.add_edge(START, "agent")
    graph.add_edge("agent", END)
    state = graph.compile().invoke({"messages": _lc_messages()[:3]})
    assert type(state["messages"][0]).__name__ == "HumanMessage"
    record = TrialRecord.from_trace(state)
    assert calls(record) == [("issue_refund", {"order": "A1"}, "failed")]
    assert record.reply == "Done."


# -- pydantic-ai ------------------------------------------------------------------------------


def _pydantic_ai_result() -> Any:
    from pydantic_ai import Agent
    from pydantic_ai.models.test import TestModel

    agent = Agent(TestModel())

    @agent.tool_plain
    def lookup_order(order: str) -> str:
        return "shipped"

    return agent.run_sync("where is my order?")


def test_pydantic_ai_messages_and_run_result() -> None:
    result = _pydantic_ai_result()
    from_messages = TrialRecord.from_trace(result.all_messages())
    from_result = TrialRecord.from_trace(result)
    assert from_messages == from_result
    assert [c[0] for c in calls(from_result)] == ["lookup_order"]
    assert from_result.tool_calls[0].payload.result == "shipped"
    assert from_result.metadata["format"] == "pydantic-ai"


# -- OpenTelemetry ----------------------------------------------------------------------------


def _otel_spans() -> Any:
    from opentelemetry.sdk.trace import TracerProvider
    from opentelemetry.sdk.trace.export import SimpleSpanProcessor
    from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter
    from opentelemetry.trace import Status, StatusCode

    exporter = InMemorySpanExporter()
    provider = TracerProvider()
    provider.add_span_processor(SimpleSpanProcessor(exporter))
    tracer = provider.get_tracer("shop")
    with tracer.start_as_current_span("invoke_agent refunds") as root:
        root.set_attribute("gen_ai.operation.name", "invoke_agent")
        root.set_attribute("gen_ai.agent.name", "refunds")
        with tracer.start_as_current_span("execute_tool issue_refund") as tool:
            tool.set_attribute("gen_ai.operation.name", "execute_tool")
            tool.set_attribute("gen_ai.tool.name", "issue_refund")
            tool.set_attribute("gen_ai.tool.call.arguments", '{"order": "A1"}')
            tool.set_status(Status(StatusCode.ERROR, "gateway timed out"))
    return exporter.get_finished_spans()


def test_readable_spans_from_the_in_memory_exporter() -> None:
    spans = _otel_spans()
    assert isinstance(spans, tuple)
    record = TrialRecord.from_trace(spans)
    assert calls(record) == [("issue_refund", {"order": "A1"}, "failed")]
    assert record.tool_calls[0].payload.error_message == "gateway timed out"
    assert (record.metadata["agent"], record.metadata["format"]) == ("refunds", "otel")
    assert TrialRecord.from_trace(list(spans)) == record


def test_span_to_json_text_one_span_or_the_console_exporters_stream() -> None:
    spans = _otel_spans()
    tool = next(s for s in spans if s.name.startswith("execute_tool"))
    one = TrialRecord.from_trace(tool.to_json())
    assert calls(one) == [("issue_refund", {"order": "A1"}, "failed")]
    stream = "".join(span.to_json() + "\n" for span in spans)  # as ConsoleSpanExporter prints
    record = TrialRecord.from_trace(stream)
    live = TrialRecord.from_trace(spans)
    assert calls(record) == calls(live)
    assert [e.duration for e in record.events] == pytest.approx(
        [e.duration for e in live.events], abs=1e-6
    )
    parsed = [json.loads(span.to_json()) for span in spans]
    assert calls(TrialRecord.from_trace(parsed)) == calls(live)


# -- OpenAI Agents SDK ------------------------------------------------------------------------


def _agents_run() -> tuple[Any, list[Any]]:
    from agents import Agent, Runner, function_tool, set_trace_processors
    from agents.items import ModelResponse
    from agents.models.interface import Model
    from agents.tracing import TracingProcessor
    from agents.usage import Usage
    from openai.types.responses import (
        ResponseFunctionToolCall,
        ResponseOutputMessage,
        ResponseOutputText,
    )

    class Collect(TracingProcessor):
        def __init__(self) -> None:
            self.items: list[Any] = []

        def on_trace_start(self, trace: Any) -> None:
            self.items.append(trace)

        def on_trace_end(self, trace: Any) -> None:
            pass

        def on_span_start(self, span: Any) -> None:
            pass

        def on_span_end(self, span: Any) -> None:
            self.items.append(span)

        def shutdown(self) -> None:
            pass

        def force_flush(self) -> None:
            pass

    class Scripted(Model):
        def __init__(self) -> None:
            self.turn = 0

        async def get_response(self, *args: Any, **kwargs: Any) -> ModelResponse:
            self.turn += 1
            output: list[Any]
            if self.turn == 1:
                output = [ResponseFunctionToolCall(
                    type="function_call", call_id="call_1", name="lookup_order",
                    arguments='{"order": "A1"}', id="fc_1", status="completed")]  # fmt: skip
            else:
                output = [ResponseOutputMessage(
                    id="msg_1", type="message", role="assistant", status="completed",
                    content=[ResponseOutputText(type="output_text", text="Shipped.",
                                                annotations=[])])]  # fmt: skip
            usage = Usage(requests=1, input_tokens=10, output_tokens=4, total_tokens=14)
            return ModelResponse(output=output, usage=usage, response_id=None)

        def stream_response(self, *args: Any, **kwargs: Any) -> Any:
            raise NotImplementedError

    @function_tool
    def lookup_order(order: str) -> str:
        return "shipped"

    collect = Collect()
    set_trace_processors([collect])
    try:
        agent = Agent(name="support", model=Scripted(), tools=[lookup_order])
        result = Runner.run_sync(agent, "where is A1?")
    finally:
        set_trace_processors([])
    return result, collect.items


def test_agents_sdk_traces_spans_and_run_result() -> None:
    result, items = _agents_run()
    from_spans = TrialRecord.from_trace(items)
    assert [c[:2] for c in calls(from_spans)] == [("lookup_order", {"order": "A1"})]
    assert from_spans.metadata["format"] == "openai-agents"
    from_result = TrialRecord.from_trace(result)
    assert calls(from_result) == [("lookup_order", {"order": "A1"}, "succeeded")]
    assert from_result.reply == "Shipped."


# -- google-genai, MCP ------------------------------------------------------------------------


def test_google_genai_contents() -> None:
    from google.genai import types

    contents = [
        types.Content(role="user", parts=[types.Part(text="where is A1?")]),
        types.Content(
            role="model",
            parts=[
                types.Part(
                    function_call=types.FunctionCall(name="lookup_order", args={"order": "A1"})
                )
            ],
        ),
        types.Content(
            role="user",
            parts=[
                types.Part(
                    function_response=types.FunctionResponse(
                        name="lookup_order", response={"output": "shipped"}
                    )
                )
            ],
        ),
        types.Content(role="model", parts=[types.Part(text="Shipped.")]),
    ]
    record = TrialRecord.from_trace(contents)
    assert calls(record) == [("lookup_order", {"order": "A1"}, "succeeded")]
    assert (record.reply, record.metadata["format"]) == ("Shipped.", "gemini")


def test_mcp_sdk_messages_and_session_messages() -> None:
    from mcp.shared.message import SessionMessage
    from mcp.types import JSONRPCRequest, JSONRPCResponse

    request = JSONRPCRequest(
        jsonrpc="2.0", id=1, method="tools/call",
        params={"name": "lookup_order", "arguments": {"order": "A1"}},
    )  # fmt: skip
    response = JSONRPCResponse(
        jsonrpc="2.0", id=1,
        result={"content": [{"type": "text", "text": "shipped"}], "isError": False},
    )  # fmt: skip
    record = TrialRecord.from_trace([SessionMessage(request), SessionMessage(response)])
    assert calls(record) == [("lookup_order", {"order": "A1"}, "succeeded")]
    assert TrialRecord.from_trace([request, response]) == record
    assert record.metadata["format"] == "mcp"


# -- what is not read -------------------------------------------------------------------------


class Opaque:
    pass


class Exportable:
    def to_dict(self) -> dict[str, Any]:
        return {}


def test_an_unknown_object_names_its_type_its_place_and_what_to_pass() -> None:
    messages = [{"role": "user", "content": "hi"}, {"role": "assistant", "content": "ok"},
                Opaque()]  # fmt: skip
    with pytest.raises(RecordError) as caught:
        TrialRecord.from_trace({"messages": messages})
    (problem,) = caught.value.problems
    assert problem.path == "$.messages[2]"
    assert problem.message == (
        "cannot read an object of type 'Opaque' (test_objects.Opaque) as trace data: pass JSON "
        "data (dicts, lists, strings, numbers) or an object of a supported SDK (docs/traces.md, "
        '"Objects from the SDKs")'
    )
    with pytest.raises(RecordError, match=r"\$\[0\]: .*'Exportable'.*pass its to_dict\(\)"):
        TrialRecord.from_trace([Exportable()])
    with pytest.raises(RecordError, match=r"\$: .*'set'.*: pass a list"):
        TrialRecord.from_trace({"a", "b"})  # type: ignore[arg-type]
    with pytest.raises(RecordError, match=r"'generator'.*pass a list of its items"):
        TrialRecord.from_trace(m for m in messages)


def test_plain_data_is_returned_as_it_is_and_dataclasses_by_field() -> None:
    data = {"messages": [{"role": "user", "content": "hi"}], "n": [1, [2]]}
    assert plain_data(data) is data

    @dataclasses.dataclass
    class Turn:
        role: str
        content: str

    assert plain_data((Turn("user", "hi"),)) == [{"role": "user", "content": "hi"}]

    class Role(enum.Enum):
        USER = "user"

    moment = datetime.datetime(2026, 5, 1, 10, 0, tzinfo=datetime.UTC)
    ident = uuid.UUID(int=1)
    assert plain_data({"role": Role.USER, "at": moment, "id": ident}) == {
        "role": "user",
        "at": "2026-05-01T10:00:00+00:00",
        "id": "00000000-0000-0000-0000-000000000001",
    }


# -- JSON text and paths ----------------------------------------------------------------------


def test_a_str_is_json_text_and_a_path_is_a_file(tmp_path: Path) -> None:
    text = '[{"role": "user", "content": "hi"}, {"role": "assistant", "content": "hello"}]'
    assert TrialRecord.from_trace(text).reply == "hello"
    file = tmp_path / "chat.json"
    file.write_text(text)
    assert TrialRecord.from_trace(file).reply == "hello"
    with pytest.raises(RecordError) as caught:
        TrialRecord.from_trace(str(file))
    assert str(caught.value.problems[0]) == (
        "<trace text>:1:1: invalid JSON: Expecting value (from_trace reads a str as JSON text; "
        "read a file with TrialRecord.load(path), or pass a pathlib.Path)"
    )


def test_the_detected_format_is_kept_in_metadata_and_native_records_are_as_written(
    tmp_path: Path,
) -> None:
    file = tmp_path / "run.json"
    file.write_text(json.dumps({"detailed_trace": ["Agent Text: hi"]}))
    assert TrialRecord.load(file).metadata == {"format": "ces"}
    assert TrialRecord.load(file, "ces").metadata == {"format": "ces"}
    native = {"reply": "x", "metadata": {"team": "a"}}
    assert TrialRecord.from_trace(native).metadata == {"team": "a"}


JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=5),
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=5), children, max_size=4)
    ),
    max_leaves=30,
)


@given(JSON)
def test_plain_json_data_is_never_copied_or_changed(data: Any) -> None:
    snapshot = json.dumps(data, sort_keys=True)
    assert plain_data(data) is data
    assert json.dumps(data, sort_keys=True) == snapshot
