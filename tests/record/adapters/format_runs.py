"""Real runs of real libraries, offline, for the fixtures of the ``langsmith``, ``mlflow``,
``inspect``, ``claude-code``, ``openai-agents-run`` and ``openinference`` adapters.

The scenario is the standard refund run of ``adapter_checks``: the user asks "Refund order
A1049"; the model calls ``lookup_order`` (succeeds) and ``issue_refund`` (fails: the gateway
timed out) in one response, then replies with text.
"""

from __future__ import annotations

import json
from typing import Any

REPLY = "I couldn't issue the refund: the payment gateway timed out."
GATEWAY_ERROR = "PaymentGatewayTimeout: gateway timed out"


def langsmith_root() -> Any:
    """The scenario as LangChain traces it: a ``RunnableLambda`` agent loop over a fake chat
    model and two ``@tool``s, collected by LangChain's ``RunCollectorCallbackHandler`` (the
    ``RunTree`` of the root run, children in ``child_runs``)."""
    from langchain_core.language_models.fake_chat_models import FakeMessagesListChatModel
    from langchain_core.messages import AIMessage, HumanMessage
    from langchain_core.runnables import RunnableLambda
    from langchain_core.tools import ToolException, tool
    from langchain_core.tracers.run_collector import RunCollectorCallbackHandler

    @tool
    def lookup_order(order_id: str) -> dict[str, str]:
        """Look an order up."""
        return {"status": "paid"}

    @tool
    def issue_refund(order_id: str, amount: float) -> str:
        """Refund an order."""
        raise ToolException(GATEWAY_ERROR)

    issue_refund.handle_tool_error = True
    tools = {"lookup_order": lookup_order, "issue_refund": issue_refund}
    calls = [
        {"name": "lookup_order", "args": {"order_id": "A1049"}, "id": "call_1"},
        {"name": "issue_refund", "args": {"order_id": "A1049", "amount": 42.0}, "id": "call_2"},
    ]
    model = FakeMessagesListChatModel(
        responses=[
            AIMessage(
                content="",
                tool_calls=calls,
                usage_metadata={"input_tokens": 100, "output_tokens": 20, "total_tokens": 120},
            ),
            AIMessage(
                content=REPLY,
                usage_metadata={"input_tokens": 150, "output_tokens": 25, "total_tokens": 175},
            ),
        ]
    )

    def agent(inputs: dict[str, Any]) -> dict[str, Any]:
        messages: list[Any] = [HumanMessage(inputs["input"])]
        while True:
            reply = model.invoke(messages)
            messages.append(reply)
            if not reply.tool_calls:
                return {"output": reply.content}
            for call in reply.tool_calls:
                messages.append(tools[call["name"]].invoke(call))

    collector = RunCollectorCallbackHandler()
    RunnableLambda(agent, name="refund_agent").invoke(
        {"input": "Refund order A1049"}, config={"callbacks": [collector]}
    )
    return collector.traced_runs[0]


def _run(tree: Any, children: bool) -> Any:
    """A ``RunTree`` as LangSmith's API returns it: a ``langsmith.schemas.Run`` in JSON."""
    from langsmith import schemas

    fields = tree.model_dump(
        exclude={
            "child_runs",
            "parent_run",
            "ls_client",
            "session_name",
            "dangerously_allow_filesystem",
            "replicas",
            "address",
            "parent_dotted_order",
        }
    )
    kids = [_run(child, True) for child in tree.child_runs] if children else None
    return schemas.Run(**fields, child_runs=kids)


def langsmith_tree() -> Any:
    """The run tree (``Client.read_run(id, load_child_runs=True)``) as JSON data."""
    return json.loads(_run(langsmith_root(), True).model_dump_json())


def langsmith_flat() -> Any:
    """The flat list of runs (``Client.list_runs(trace_id=...)``), newest first, as JSON data."""
    root = langsmith_root()
    runs = [root, *root.child_runs]
    return [json.loads(_run(run, False).model_dump_json()) for run in reversed(runs)]
