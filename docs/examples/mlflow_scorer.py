"""The MLflow example of docs/integrations.md: an agent traced with ``@mlflow.trace``, its runs
checked by ``mlflow.genai.evaluate`` with our scorer. Run it from a scratch folder: it writes
its local tracking store (``mlflow.db``) and artifacts (``mlruns/``) there."""

import mlflow
from mlflow.entities import SpanType

from agent_asserts.integrations.mlflow import agent_asserts_scorer


@mlflow.trace(span_type=SpanType.TOOL)
def lookup_order(order_id):
    return {"order_id": order_id, "status": "paid", "total": 42}


@mlflow.trace(span_type=SpanType.TOOL)
def issue_refund(order_id, amount):
    return {"refunded": amount}


@mlflow.trace(span_type=SpanType.AGENT)
def refund_agent(question):  # the agent under test: its tools traced as TOOL spans
    order = lookup_order("A1049")
    issue_refund(order["order_id"], 40)  # a bug: the order's total is 42
    return "Refund issued for order A1049."


def refund_checks(ctx):
    ctx.called_tool("lookup_order", {"order_id": "A1049"})
    ctx.called_tool("issue_refund", {"amount": 42})
    ctx.tool_order("lookup_order", "issue_refund")
    ctx.max_tool_calls(5).soft()


def main():
    mlflow.set_tracking_uri("sqlite:///mlflow.db")
    result = mlflow.genai.evaluate(
        data=[{"inputs": {"question": "Refund order A1049"}}],
        predict_fn=refund_agent,
        scorers=[agent_asserts_scorer(refund_checks)],
    )
    row = result.result_df.iloc[0]
    for name in ("called_tool:lookup_order", "called_tool:issue_refund", "tool_order",
                 "max_tool_calls:5", "verdict"):  # fmt: skip
        print(f"{name} = {row[name + '/value']}: {row[name + '/rationale']}")


if __name__ == "__main__":
    main()
