"""The performance contract: whole jobs, side by side with a hand-written script and the peers.

Everything here is a whole job a user runs, measured as a whole process (CPU time of the child
process, user + system, from ``os.wait4``; medians over several rounds, the sides interleaved
round by round so the load of the shared machine hits them alike). The data is made by this
script (seeded, deterministic): customer-support runs in OpenAI Chat format (system and user
messages, assistant messages with ``tool_calls`` — some of them parallel —, ``tool`` results,
small dict arguments, a final reply, ``usage``), 5 to 40 tool calls each.

Parts (each runs alone; ``all`` runs every part; ``--quick`` is a small size for smoke runs):

* ``ci``: 1,000 run files and a suite of 15 checks, (a) through the Python API
  (``TrialRecord.load`` + ``run_case``), (b) through ``agent-asserts check`` with the same suite
  as a suite file, each against a hand-written script (``json.load`` + plain loops doing the
  same 15 checks); beside them the peers, each in its own virtual environment under
  ``$TMPDIR/agent_asserts-bench/`` (created with ``pip`` on first use, like
  ``_agentevals.py``): pydantic-evals (a ``Dataset`` of the runs with the same 15 checks as
  ``Evaluator`` classes), agentevals (the trajectory check alone, against our API doing that
  check alone) and DeepEval (its ``ToolCorrectnessMetric``, no LLM, against our API doing the
  equivalent check alone). Every side reports its per-check failure counts, and the script
  says whether they agree, so every side is seen to do the same work.
  Targets: API <= 2.5x the script, CLI <= 3x, faster than every peer on its job.
* ``scale``: the same suite (loaded from the suite file) over 100,000 runs streamed from one
  JSON Lines file with ``iter_records`` + ``evaluate_many(..., keep_results=False)`` (a batch
  of that size keeps its counts, not every result; docs/batches.md): serial,
  ``ProcessPoolExecutor(2)``
  (target >= 1.6x serial, wall clock) and Dask ``LocalCluster(n_workers=2)``'s
  ``client.get_executor()`` (target >= 1.3x); peak memory (``ru_maxrss`` of a child) for two
  batch sizes (target: the larger batch within 1.25x of the smaller one's peak).
* ``growth``: time per run as runs grow from 10 to 10,000 calls, for every check of the suite
  (each evaluated once on a freshly loaded record, after a full garbage collection, so the
  collector's first pass over the new record is not billed to the check): fitted exponent
  <= 1.1.
* ``cold``: ``agent-asserts check`` on one file <= 400 ms (whole process), the first check in a
  fresh process <= 150 ms after import, ``import agent_asserts`` <= 150 ms.

The suite's 15 checks: ``called_tool`` with partial arguments x4, ``not_called_tool`` x3,
``tool_order`` x2, an exact count (``called_tool(..., count=1)``), ``model_calls_at_most``,
``total_tokens_at_most``, a reply regex (``output_matches``), an unordered reference trajectory
(``matches_trajectory(order="unordered")``) and ``no_failed_actions``. Two checks of the brief
are swapped for ones the format records: OpenAI Chat records no step count (``max_steps`` would
be ``invalid``: "the record has no step count"), so the step budget is ``model_calls_at_most``
(one model call per assistant message); and it records no memory or state, so the state check
is ``no_failed_actions`` (tool results marked failed by the format's ``Error:`` convention).

Only the public API is used (``agent_asserts`` top-level names, ``agent_asserts.loaders.load``,
the ``agent-asserts`` command), so the script runs unchanged on any branch:
``PYTHONPATH=/path/to/tree python benchmarks/end_to_end.py [all|ci|scale|growth|cold] [--quick]``.
It exits 0 when every target was met (``run_all.py`` convention), else 1.
"""

from __future__ import annotations

import argparse
import gc
import json
import math
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import venv
from pathlib import Path

CACHE = Path(tempfile.gettempdir()) / "agent_asserts-bench"
INSTALL_TIMEOUT = 900.0

# ---------------------------------------------------------------------------------------------
# The data: customer-support runs in OpenAI Chat format
# ---------------------------------------------------------------------------------------------

ORDER, CUSTOMER, EMAIL = "A1049", "C-77", "ann@example.com"
# The happy path: the reference trajectory of the unordered check (name, arguments).
REFERENCE = [
    ("get_customer", {"customer_id": CUSTOMER}),
    ("lookup_order", {"order_id": ORDER, "include_history": False}),
    ("search_kb", {"query": "refund policy damaged item", "limit": 3}),
    ("issue_refund", {"order_id": ORDER, "amount": 42.5, "reason": "damaged"}),
    ("send_email", {"to": EMAIL, "template": "refund_confirmation"}),
    ("create_ticket", {"subject": f"Refund {ORDER}", "priority": "low"}),
]
FORBIDDEN = ("delete_account", "cancel_order", "transfer_funds")
TEMPLATES = ("refund_confirmation", "apology", "shipping_update")


def _extra_call(rng: random.Random) -> tuple[str, dict[str, object]]:
    """A call off the happy path: mostly reads, with varied small arguments."""
    kind = rng.randrange(6)
    if kind == 0:
        return "lookup_order", {
            "order_id": f"A{rng.randrange(1000, 1100)}",
            "include_history": True,
        }
    if kind == 1:
        return "search_kb", {
            "query": rng.choice(["returns", "shipping times", "warranty"]),
            "limit": 5,
        }
    if kind == 2:
        return "check_inventory", {"sku": f"SKU-{rng.randrange(100)}", "warehouse": "EU-1"}
    if kind == 3:
        return "get_shipping_status", {"tracking_id": f"TR{rng.randrange(10**6):06d}"}
    if kind == 4:
        return "send_email", {"to": EMAIL, "template": rng.choice(TEMPLATES[1:])}
    return "get_customer", {"customer_id": f"C-{rng.randrange(10, 99)}"}


def _result(rng: random.Random, name: str, failing: bool) -> str:
    if failing:
        return f"Error: {name} timed out contacting the backend"
    return json.dumps({"ok": True, "tool": name, "id": rng.randrange(10**6), "note": "done"})


def make_run(seed: int, n_calls: int | None = None) -> dict[str, object]:
    """One run (an OpenAI Chat document: messages + usage), deterministic for ``seed``.

    A quarter of the runs follow the happy path exactly (the reference trajectory, possibly
    reordered where the order is free); the others add calls off the path, and some change an
    argument, drop a step, swap two steps, call a forbidden tool, get a failing result, use
    many model calls or tokens, or end with another reply.
    """
    rng = random.Random(seed)
    happy = n_calls is None and rng.random() < 0.25
    calls = [(name, dict(args)) for name, args in REFERENCE]
    if rng.random() < 0.5:  # the first three reads in another order
        head = calls[:3]
        rng.shuffle(head)
        calls[:3] = head
    if not happy:
        if rng.random() < 0.08:
            calls[3][1]["amount"] = 40.0  # wrong refund amount
        if rng.random() < 0.06:
            del calls[4]  # no confirmation e-mail
        total = n_calls if n_calls is not None else rng.randint(5, 40)
        while len(calls) > total:
            del calls[rng.randrange(len(calls))]
        while len(calls) < total:
            calls.insert(rng.randrange(len(calls) + 1), _extra_call(rng))
        if rng.random() < 0.05 and len(calls) > 1:
            i, j = rng.sample(range(len(calls)), 2)
            calls[i], calls[j] = calls[j], calls[i]
        if rng.random() < 0.05:
            calls[rng.randrange(len(calls))] = (rng.choice(FORBIDDEN), {"order_id": ORDER})
    failing = -1 if happy or rng.random() >= 0.1 else rng.randrange(len(calls))
    messages: list[dict[str, object]] = [
        {"role": "system", "content": "You are the support agent of Example Shop."},
        {"role": "user", "content": f"My order {ORDER} arrived damaged, I want a refund."},
    ]
    i = 0
    n_model = 0
    while i < len(calls):
        size = rng.choice((2, 3)) if rng.random() < 0.3 else 1  # some parallel calls
        group = calls[i : i + size]
        tool_calls = []
        for k, (name, args) in enumerate(group):
            call_id = f"call_{seed}_{i + k}"
            tool_calls.append(
                {
                    "id": call_id,
                    "type": "function",
                    "function": {"name": name, "arguments": json.dumps(args)},
                }
            )
        messages.append({"role": "assistant", "content": None, "tool_calls": tool_calls})
        n_model += 1
        for k, (name, _) in enumerate(group):
            messages.append(
                {
                    "role": "tool",
                    "tool_call_id": f"call_{seed}_{i + k}",
                    "content": _result(rng, name, i + k == failing),
                }
            )
        i += size
    if happy or rng.random() < 0.85:
        reply = f"I have issued a refund of $42.50 for order {ORDER}. A confirmation is on its way."
    else:
        reply = "I could not complete the refund; a colleague will contact you."
    messages.append({"role": "assistant", "content": reply})
    n_model += 1
    prompt = sum(rng.randint(250, 800) for _ in range(n_model))
    completion = sum(rng.randint(20, 120) for _ in range(n_model))
    return {
        "messages": messages,
        "usage": {
            "prompt_tokens": prompt,
            "completion_tokens": completion,
            "total_tokens": prompt + completion,
        },
    }


DATA_VERSION = 1  # bump when make_run changes: the data made earlier is then not reused


def write_run_files(work: Path, n: int, seed: int = 22) -> Path:
    """A folder of ``n`` run files under ``work``, made once and reused by later runs.

    It is made under a private name and renamed, so runs of this script that share ``work``
    (several engineers on one machine) never see a half-written folder.
    """
    folder = work / f"runs-{n}-s{seed}-v{DATA_VERSION}"
    if folder.exists():
        return folder
    tmp = Path(tempfile.mkdtemp(prefix=folder.name + ".", dir=work))
    for i in range(n):
        with open(tmp / f"run_{i:06d}.json", "w") as f:
            json.dump(make_run(seed * 1_000_003 + i), f)
    try:
        tmp.rename(folder)
    except OSError:  # made meanwhile by another run
        shutil.rmtree(tmp)
    return folder


def write_jsonl(work: Path, n: int, seed: int = 22) -> Path:
    """A JSON Lines file of ``n`` runs under ``work`` (made once, like ``write_run_files``)."""
    path = work / f"runs-{n}-s{seed}-v{DATA_VERSION}.jsonl"
    if path.exists():
        return path
    fd, name = tempfile.mkstemp(prefix=path.name + ".", dir=work)
    with os.fdopen(fd, "w") as f:
        for i in range(n):
            f.write(json.dumps(make_run(seed * 1_000_003 + i)))
            f.write("\n")
    os.replace(name, path)
    return path


# ---------------------------------------------------------------------------------------------
# The suite, written three ways: a suite file, a Python case function, a hand-written script
# ---------------------------------------------------------------------------------------------

REPLY_PATTERN = r"refund of \$\d+(?:\.\d\d)? for order A\d+"
MAX_MODEL_CALLS = 25
TOKEN_BUDGET = 15000
CHECK_LABELS = [
    "called_tool:lookup_order(args)",
    "called_tool:get_customer(args)",
    "called_tool:issue_refund(args)",
    "called_tool:send_email(args)",
    "not_called_tool:delete_account",
    "not_called_tool:cancel_order",
    "not_called_tool:transfer_funds",
    "tool_order:lookup_order,issue_refund",
    "tool_order:get_customer,send_email",
    "called_tool:issue_refund(count=1)",
    "model_calls_at_most",
    "total_tokens_at_most",
    "output_matches",
    "matches_trajectory(unordered)",
    "no_failed_actions",
]
REFERENCE_JSON = [{"name": name, "arguments": args} for name, args in REFERENCE]
SUITE_FILE = {
    "name": "support",
    "checks": [
        {"called_tool": {"name": "lookup_order", "arguments": {"order_id": ORDER}}},
        {"called_tool": {"name": "get_customer", "arguments": {"customer_id": CUSTOMER}}},
        {"called_tool": {"name": "issue_refund", "arguments": {"order_id": ORDER, "amount": 42.5}}},
        {"called_tool": {"name": "send_email", "arguments": {"template": "refund_confirmation"}}},
        {"not_called_tool": "delete_account"},
        {"not_called_tool": "cancel_order"},
        {"not_called_tool": "transfer_funds"},
        {"tool_order": ["lookup_order", "issue_refund"]},
        {"tool_order": ["get_customer", "send_email"]},
        {"called_tool": {"name": "issue_refund", "count": 1}},
        {"model_calls_at_most": MAX_MODEL_CALLS},
        {"total_tokens_at_most": TOKEN_BUDGET},
        {"output_matches": REPLY_PATTERN},
        {"matches_trajectory": {"reference": REFERENCE_JSON, "order": "unordered"}},
        {"no_failed_actions": None},
    ],
}

# The constants every child program starts with (the same values as above).
CONSTANTS = f"""
ORDER, CUSTOMER, EMAIL = {ORDER!r}, {CUSTOMER!r}, {EMAIL!r}
REFERENCE = {REFERENCE_JSON!r}
REPLY_PATTERN = {REPLY_PATTERN!r}
MAX_MODEL_CALLS = {MAX_MODEL_CALLS!r}
TOKEN_BUDGET = {TOKEN_BUDGET!r}
"""

# The Python API, as a user writes it: load each file, run a case function on it.
API_CASE = """
import os, sys, json
from agent_asserts import TrialRecord, run_case

def support(ctx):
    ctx.called_tool("lookup_order", arguments={"order_id": ORDER})
    ctx.called_tool("get_customer", arguments={"customer_id": CUSTOMER})
    ctx.called_tool("issue_refund", arguments={"order_id": ORDER, "amount": 42.5})
    ctx.called_tool("send_email", arguments={"template": "refund_confirmation"})
    ctx.not_called_tool("delete_account")
    ctx.not_called_tool("cancel_order")
    ctx.not_called_tool("transfer_funds")
    ctx.tool_order("lookup_order", "issue_refund")
    ctx.tool_order("get_customer", "send_email")
    ctx.called_tool("issue_refund", count=1)
    ctx.model_calls_at_most(MAX_MODEL_CALLS)
    ctx.total_tokens_at_most(TOKEN_BUDGET)
    ctx.output_matches(REPLY_PATTERN)
    ctx.matches_trajectory(REFERENCE, order="unordered")
    ctx.no_failed_actions()

def trajectory(ctx):
    ctx.matches_trajectory(REFERENCE, order="unordered")

def tools_called(ctx):  # DeepEval's ToolCorrectnessMetric: every expected tool name was called
    ctx.matches_trajectory([c["name"] for c in REFERENCE], order="superset", arguments="ignore")

CASES = {"suite": support, "trajectory": trajectory, "tools": tools_called}

folder, which = sys.argv[1], sys.argv[2]
fn = CASES[which]
failures, passed = None, 0
for name in sorted(os.listdir(folder)):
    if not name.endswith(".json"):
        continue
    result = run_case(TrialRecord.load(os.path.join(folder, name)), fn)
    if failures is None:
        failures = [0] * len(result.results)
    for i, r in enumerate(result.results):
        failures[i] += not r.passed
    passed += result.verdict.value == "passed"
print(json.dumps({"failures": failures, "passed": passed}))
"""

# The hand-written checks: what a user writes with json + loops (also used by the peers'
# evaluators, so every side makes the same decisions).
HAND_CHECKS = """
import json, re
from collections import Counter

_REPLY = re.compile(REPLY_PATTERN)
_MISSING = object()


def view(run):
    '''(calls: (model call number, name, arguments), result texts, model calls, reply, tokens)'''
    calls, results, n_model, reply = [], [], 0, None
    for m in run["messages"]:
        role = m["role"]
        if role == "assistant":
            n_model += 1
            for tc in m.get("tool_calls") or ():
                f = tc["function"]
                calls.append((n_model, f["name"], json.loads(f["arguments"])))
            if m.get("content"):
                reply = m["content"]
        elif role == "tool":
            results.append(m["content"])
    return calls, results, n_model, reply, run["usage"]["total_tokens"]


def called_with(calls, name, expected):
    for _, n, args in calls:
        if n == name and all(args.get(k, _MISSING) == v for k, v in expected.items()):
            return True
    return False


def not_called(calls, name):
    return all(n != name for _, n, _ in calls)


def in_order(calls, *names):
    after, i = 0, 0
    for step in names:
        while i < len(calls) and not (calls[i][1] == step and calls[i][0] > after):
            i += 1
        if i == len(calls):
            return False
        after = calls[i][0]
    return True


def count_is(calls, name, n):
    return sum(1 for _, c, _ in calls if c == name) == n


def _key(name, args):
    return name, json.dumps(args, sort_keys=True)


_REFERENCE = Counter(_key(c["name"], c["arguments"]) for c in REFERENCE)


def unordered_trajectory(calls):
    return Counter(_key(n, a) for _, n, a in calls) == _REFERENCE


def superset_names(calls):
    names = Counter(n for _, n, _ in calls)
    return all(names[n] >= k for n, k in Counter(c["name"] for c in REFERENCE).items())


def failed(text):
    if text.startswith(("Error:", "Error ")):
        return True
    try:
        data = json.loads(text)
    except ValueError:
        return False
    if not isinstance(data, dict):
        return False
    return "error" in data and "output" not in data and "result" not in data


def suite(v):
    calls, results, n_model, reply, tokens = v
    return [
        called_with(calls, "lookup_order", {"order_id": ORDER}),
        called_with(calls, "get_customer", {"customer_id": CUSTOMER}),
        called_with(calls, "issue_refund", {"order_id": ORDER, "amount": 42.5}),
        called_with(calls, "send_email", {"template": "refund_confirmation"}),
        not_called(calls, "delete_account"),
        not_called(calls, "cancel_order"),
        not_called(calls, "transfer_funds"),
        in_order(calls, "lookup_order", "issue_refund"),
        in_order(calls, "get_customer", "send_email"),
        count_is(calls, "issue_refund", 1),
        n_model <= MAX_MODEL_CALLS,
        tokens <= TOKEN_BUDGET,
        reply is not None and _REPLY.search(reply) is not None,
        unordered_trajectory(calls),
        not any(failed(t) for t in results),
    ]
"""

HAND_MAIN = """
import os, sys

folder, which = sys.argv[1], sys.argv[2]
failures, passed = None, 0
for name in sorted(os.listdir(folder)):
    if not name.endswith(".json"):
        continue
    with open(os.path.join(folder, name)) as f:
        v = view(json.load(f))
    if which == "suite":
        oks = suite(v)
    elif which == "trajectory":
        oks = [unordered_trajectory(v[0])]
    else:
        oks = [superset_names(v[0])]
    if failures is None:
        failures = [0] * len(oks)
    for i, ok in enumerate(oks):
        failures[i] += not ok
    passed += all(oks)
print(json.dumps({"failures": failures, "passed": passed}))
"""

# The floor: the least any library shaped like this one must do on the job, for scale (no
# target). It imports the library (its import is part of every API job) and then, per run,
# builds one frozen attrs object per event (the record's 20 envelope fields and a payload),
# reads the hand-written checks' view from those objects, and makes one frozen check object
# and one result object per check: no validation, no format detection, no messages.
FLOOR_MAIN = """
import os, sys
import attrs
from agent_asserts import EvalContext, TrialRecord


@attrs.frozen
class Call:
    name: str
    arguments: object = None
    result: object = None
    is_error: bool = False
    source: str = "local"
    call_id: str | None = None
    extra: dict = attrs.field(factory=dict)


@attrs.frozen
class Text:
    text: str = ""
    extra: dict = attrs.field(factory=dict)


@attrs.frozen
class Event:
    kind: str
    payload: object
    event_id: str
    event_type: str | None = None
    wall_time: object = None
    monotonic_time: float | None = None
    actor_ref: str | None = None
    surface: str | None = None
    audience: str | None = None
    turn: int | None = None
    phase: str | None = None
    entity_refs: tuple = ()
    operation_ref: str | None = None
    correlation_id: str | None = None
    caused_by_event_id: str | None = None
    status: str | None = None
    duration: float | None = None
    parent_id: str | None = None
    group_id: str | None = None
    agent: str | None = None


@attrs.frozen
class Record:
    events: tuple
    usage: dict
    metadata: dict


@attrs.frozen
class Check:
    name: str
    arguments: dict | None = None


@attrs.frozen
class Result:
    check: Check
    passed: bool
    message: str


def build(run):
    events, pending = [], {}
    for n, m in enumerate(run["messages"]):
        role = m["role"]
        if role == "assistant":
            events.append(Event("model_call", Text(), f"m{n}"))
            for tc in m.get("tool_calls") or ():
                fn = tc["function"]
                pending[tc["id"]] = (fn["name"], json.loads(fn["arguments"]), tc["id"], len(events))
                events.append(None)
            if m.get("content"):
                reply = Text(m["content"])
                events.append(Event("agent_message", reply, f"r{n}", actor_ref="agent"))
        elif role == "tool":
            name, args, call_id, at = pending.pop(m["tool_call_id"])
            call = Call(name, args, m["content"], call_id=call_id)
            events[at] = Event("tool_call", call, call_id)
        else:
            events.append(Event("message", Text(m["content"]), f"u{n}", actor_ref=role))
    return Record(tuple(e for e in events if e is not None), run["usage"], {"format": "floor"})


def view_of(record):
    calls, results, n_model, reply = [], [], 0, None
    for e in record.events:
        if e.kind == "model_call":
            n_model += 1
        elif e.kind == "tool_call":
            calls.append((n_model, e.payload.name, e.payload.arguments))
            results.append(e.payload.result)
        elif e.kind == "agent_message":
            reply = e.payload.text
    return calls, results, n_model, reply, record.usage["total_tokens"]


folder = sys.argv[1]
failures, passed = None, 0
for name in sorted(os.listdir(folder)):
    if not name.endswith(".json"):
        continue
    with open(os.path.join(folder, name)) as f:
        record = build(json.load(f))
    oks = suite(view_of(record))
    made = [Result(Check(f"check {i}", {"i": i}), ok, "") for i, ok in enumerate(oks)]
    if failures is None:
        failures = [0] * len(oks)
    for i, result in enumerate(made):
        failures[i] += not result.passed
    passed += all(oks)
print(json.dumps({"failures": failures, "passed": passed}))
"""

# pydantic-evals: a Dataset of the runs (the task parses each file), one Evaluator class per
# kind of check, the same decisions as the hand-written checks.
PYDANTIC_MAIN = """
import os, sys
from dataclasses import dataclass
from pydantic_evals import Case, Dataset
from pydantic_evals.evaluators import Evaluator, EvaluatorContext

LABELS = LABELS_VALUE


@dataclass
class CalledWith(Evaluator):
    label: str
    name: str
    expected: dict
    def evaluate(self, ctx: EvaluatorContext) -> dict:
        return {self.label: called_with(ctx.output[0], self.name, self.expected)}


@dataclass
class NotCalled(Evaluator):
    label: str
    name: str
    def evaluate(self, ctx: EvaluatorContext) -> dict:
        return {self.label: not_called(ctx.output[0], self.name)}


@dataclass
class InOrder(Evaluator):
    label: str
    first: str
    then: str
    def evaluate(self, ctx: EvaluatorContext) -> dict:
        return {self.label: in_order(ctx.output[0], self.first, self.then)}


@dataclass
class CountIs(Evaluator):
    label: str
    name: str
    n: int
    def evaluate(self, ctx: EvaluatorContext) -> dict:
        return {self.label: count_is(ctx.output[0], self.name, self.n)}


@dataclass
class ModelCallsAtMost(Evaluator):
    label: str
    n: int
    def evaluate(self, ctx: EvaluatorContext) -> dict:
        return {self.label: ctx.output[2] <= self.n}


@dataclass
class TokensAtMost(Evaluator):
    label: str
    n: int
    def evaluate(self, ctx: EvaluatorContext) -> dict:
        return {self.label: ctx.output[4] <= self.n}


@dataclass
class ReplyMatches(Evaluator):
    label: str
    def evaluate(self, ctx: EvaluatorContext) -> dict:
        reply = ctx.output[3]
        return {self.label: reply is not None and _REPLY.search(reply) is not None}


@dataclass
class UnorderedTrajectory(Evaluator):
    label: str
    def evaluate(self, ctx: EvaluatorContext) -> dict:
        return {self.label: unordered_trajectory(ctx.output[0])}


@dataclass
class NoFailedActions(Evaluator):
    label: str
    def evaluate(self, ctx: EvaluatorContext) -> dict:
        return {self.label: not any(failed(t) for t in ctx.output[1])}


def task(path: str):
    with open(path) as f:
        return view(json.load(f))


folder = sys.argv[1]
cases = [
    Case(name=name, inputs=os.path.join(folder, name))
    for name in sorted(os.listdir(folder)) if name.endswith(".json")
]
evaluators = [
    CalledWith(LABELS[0], "lookup_order", {"order_id": ORDER}),
    CalledWith(LABELS[1], "get_customer", {"customer_id": CUSTOMER}),
    CalledWith(LABELS[2], "issue_refund", {"order_id": ORDER, "amount": 42.5}),
    CalledWith(LABELS[3], "send_email", {"template": "refund_confirmation"}),
    NotCalled(LABELS[4], "delete_account"),
    NotCalled(LABELS[5], "cancel_order"),
    NotCalled(LABELS[6], "transfer_funds"),
    InOrder(LABELS[7], "lookup_order", "issue_refund"),
    InOrder(LABELS[8], "get_customer", "send_email"),
    CountIs(LABELS[9], "issue_refund", 1),
    ModelCallsAtMost(LABELS[10], MAX_MODEL_CALLS),
    TokensAtMost(LABELS[11], TOKEN_BUDGET),
    ReplyMatches(LABELS[12]),
    UnorderedTrajectory(LABELS[13]),
    NoFailedActions(LABELS[14]),
]
dataset = Dataset(name="support", cases=cases, evaluators=evaluators)
report = dataset.evaluate_sync(task, progress=False)
failures = [0] * len(LABELS)
passed = 0
for case in report.cases:
    oks = [case.assertions[label].value for label in LABELS]
    for i, ok in enumerate(oks):
        failures[i] += not ok
    passed += all(oks)
failures_failed = len(report.failures)
print(json.dumps({"failures": failures, "passed": passed, "task_failures": failures_failed}))
"""

# agentevals: its trajectory match in unordered mode with exact arguments, per run file.
AGENTEVALS_MAIN = """
import os, sys
from agentevals.trajectory.match import create_trajectory_match_evaluator

reference = [{"role": "assistant", "content": "", "tool_calls": [
    {"id": f"r{i}", "type": "function",
     "function": {"name": c["name"], "arguments": json.dumps(c["arguments"])}}
    for i, c in enumerate(REFERENCE)]}]
evaluator = create_trajectory_match_evaluator(
    trajectory_match_mode="unordered", tool_args_match_mode="exact"
)
folder = sys.argv[1]
fails = 0
for name in sorted(os.listdir(folder)):
    if not name.endswith(".json"):
        continue
    with open(os.path.join(folder, name)) as f:
        run = json.load(f)
    result = evaluator(outputs=run["messages"], reference_outputs=reference)
    fails += not result["score"]
print(json.dumps({"failures": [fails], "passed": None}))
"""

# DeepEval: ToolCorrectnessMetric (deterministic, no LLM) with every expected tool required.
DEEPEVAL_MAIN = """
import os, sys
from deepeval.metrics import ToolCorrectnessMetric
from deepeval.models import DeepEvalBaseLLM
from deepeval.test_case import LLMTestCase, ToolCall


class NoLLM(DeepEvalBaseLLM):
    '''The metric's model argument; never called (no available_tools: no LLM step).'''

    def __init__(self):
        self.name = "no-llm"

    def load_model(self):
        return self

    def generate(self, *args, **kwargs):
        raise RuntimeError("the benchmark uses no LLM")

    async def a_generate(self, *args, **kwargs):
        raise RuntimeError("the benchmark uses no LLM")

    def get_model_name(self):
        return self.name


expected = [ToolCall(name=c["name"], input_parameters=c["arguments"]) for c in REFERENCE]
metric = ToolCorrectnessMetric(
    threshold=1.0, model=NoLLM(), include_reason=False, async_mode=False
)
folder = sys.argv[1]
fails = 0
for name in sorted(os.listdir(folder)):
    if not name.endswith(".json"):
        continue
    with open(os.path.join(folder, name)) as f:
        run = json.load(f)
    called, reply = [], ""
    for m in run["messages"]:
        if m["role"] == "assistant":
            for tc in m.get("tool_calls") or ():
                fn = tc["function"]
                arguments = json.loads(fn["arguments"])
                called.append(ToolCall(name=fn["name"], input_parameters=arguments))
            reply = m.get("content") or reply
    case = LLMTestCase(
        input=run["messages"][1]["content"], actual_output=reply,
        tools_called=called, expected_tools=expected,
    )
    metric.measure(case, _show_indicator=False)
    fails += not metric.is_successful()
print(json.dumps({"failures": [fails], "passed": None}))
"""


def child_sources() -> dict[str, str]:
    """The child programs, by name (each a whole script run by a fresh interpreter)."""
    return {
        "api": CONSTANTS + API_CASE,
        "hand": CONSTANTS + HAND_CHECKS + HAND_MAIN,
        "floor": CONSTANTS + HAND_CHECKS + FLOOR_MAIN,
        "pydantic": CONSTANTS
        + HAND_CHECKS
        + PYDANTIC_MAIN.replace("LABELS_VALUE", repr(CHECK_LABELS)),
        "agentevals": "import json\n" + CONSTANTS + AGENTEVALS_MAIN,
        "deepeval": "import json\n" + CONSTANTS + DEEPEVAL_MAIN,
    }


# ---------------------------------------------------------------------------------------------
# Running children and measuring them
# ---------------------------------------------------------------------------------------------


def child_env() -> dict[str, str]:
    """The environment of every child: bytecode cached as in an installed package, no telemetry."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env.update(
        DEEPEVAL_TELEMETRY_OPT_OUT="YES",
        DEEPEVAL_UPDATE_WARNING_OPT_IN="NO",
        DEEPEVAL_GRPC_LOGGING="NO",
        DEEPEVAL_DISABLE_DOTENV="1",
        ERROR_REPORTING="NO",
        LANGSMITH_TRACING="false",
        LOGFIRE_IGNORE_NO_CONFIG="1",
        OTEL_SDK_DISABLED="true",
        NO_COLOR="1",
        CI="1",
    )
    return env


class Measured:
    """One finished child: CPU seconds (user + system), wall seconds, peak RSS, output."""

    def __init__(self, cpu: float, wall: float, maxrss_kb: int, out: str, code: int) -> None:
        self.cpu, self.wall, self.maxrss_kb, self.out, self.code = cpu, wall, maxrss_kb, out, code

    def json(self) -> dict[str, object]:
        lines = [line for line in self.out.strip().splitlines() if line.startswith("{")]
        if not lines:
            raise RuntimeError(f"the child printed no JSON (exit {self.code}):\n{self.out[-2000:]}")
        data: dict[str, object] = json.loads(lines[-1])
        return data


def run_child(argv: list[str], *, cwd: Path | None = None, timeout: float = 3600.0) -> Measured:
    """Run ``argv`` to its end; its own CPU time and peak memory from ``os.wait4``.

    The child's usage includes that of its own children it waited for (pool workers).
    """
    with tempfile.TemporaryFile(mode="w+") as out_file:
        start = time.perf_counter()
        proc = subprocess.Popen(
            argv, stdout=out_file, stderr=subprocess.STDOUT, env=child_env(), cwd=cwd, text=True
        )
        deadline = start + timeout
        while True:
            pid, status, usage = os.wait4(proc.pid, os.WNOHANG)
            if pid:
                break
            if time.perf_counter() > deadline:
                proc.kill()
                pid, status, usage = os.wait4(proc.pid, 0)
                break
            time.sleep(0.002)
        wall = time.perf_counter() - start
        proc.returncode = code = os.waitstatus_to_exitcode(status)
        out_file.seek(0)
        out = out_file.read()
    return Measured(usage.ru_utime + usage.ru_stime, wall, usage.ru_maxrss, out, code)


def interleaved(
    sides: dict[str, list[str]],
    rounds: int,
    *,
    cwd: Path | None = None,
    warm_up: dict[str, list[str]] | None = None,
) -> dict[str, list[Measured]]:
    """Each side once untimed, then ``rounds`` rounds, the order rotating per round.

    The untimed run (``warm_up[name]``, a smaller job, when given) writes the bytecode caches
    and fills the file cache, as in an installed package on a machine that ran it before.
    """
    names = list(sides)
    samples: dict[str, list[Measured]] = {n: [] for n in names}
    for n in names:
        warm = run_child((warm_up or sides)[n], cwd=cwd)
        if n not in ("cli",) and warm.code != 0:
            raise RuntimeError(f"{n} failed (exit {warm.code}):\n{warm.out[-3000:]}")
    for r in range(rounds):
        for n in names[r % len(names) :] + names[: r % len(names)]:
            samples[n].append(run_child(sides[n], cwd=cwd))
    return samples


def median_cpu(samples: list[Measured]) -> float:
    return statistics.median(m.cpu for m in samples)


def median_wall(samples: list[Measured]) -> float:
    return statistics.median(m.wall for m in samples)


def fmt(seconds: float) -> str:
    if seconds >= 1:
        return f"{seconds:.2f} s"
    if seconds >= 1e-3:
        return f"{seconds * 1e3:.1f} ms"
    return f"{seconds * 1e6:.1f} µs"


class Targets:
    """Target lines ``[ok]`` / ``[MISSED]`` and the tally (the ``run_all.py`` convention)."""

    def __init__(self) -> None:
        self.rows: list[tuple[str, bool, str]] = []

    def check(self, label: str, ok: bool, detail: str) -> None:
        self.rows.append((label, ok, detail))
        print(f"  [{'ok' if ok else 'MISSED'}] {label}: {detail}", flush=True)

    def summary(self) -> int:
        print("\n## targets")
        for label, ok, detail in self.rows:
            print(f"  [{'ok' if ok else 'MISSED'}] {label}: {detail}")
        missed = [label for label, ok, _ in self.rows if not ok]
        met = len(self.rows) - len(missed)
        if missed:
            print(f"\ntargets: {met} of {len(self.rows)} met; missed: {', '.join(missed)}")
            return 1
        print(f"\ntargets: all {len(self.rows)} met")
        return 0


def load_line() -> str:
    one, five, fifteen = os.getloadavg()
    return f"load average {one:.2f}, {five:.2f}, {fifteen:.2f} on {os.cpu_count()} cores"


def agent_asserts_cli() -> list[str]:
    """The ``agent-asserts`` console script beside this Python, else ``python -m agent_asserts``."""
    script = Path(sys.executable).parent / "agent-asserts"
    if script.exists():
        return [str(script)]
    found = shutil.which("agent-asserts")
    return [found] if found else [sys.executable, "-m", "agent_asserts"]


# ---------------------------------------------------------------------------------------------
# Peers, each in its own virtual environment
# ---------------------------------------------------------------------------------------------

PEERS = {
    # name: (pip requirement, import probe)
    "pydantic-evals": ("pydantic-evals", "import pydantic_evals"),
    "agentevals": ("agentevals", "import agentevals.trajectory.match"),
    "deepeval": ("deepeval", "from deepeval.metrics import ToolCorrectnessMetric"),
}


def peer_python(name: str) -> tuple[Path | None, str]:
    """(the Python of ``name``'s environment, "") or (None, why it is not available)."""
    requirement, probe = PEERS[name]
    env_dir = CACHE / f"{name}-venv"
    python = env_dir / "bin" / "python"

    def works() -> bool:
        if not python.exists():
            return False
        done = subprocess.run(
            [str(python), "-c", probe], capture_output=True, env=child_env(), check=False
        )
        return done.returncode == 0

    if works():
        return python, ""
    try:
        if not python.exists():
            env_dir.parent.mkdir(parents=True, exist_ok=True)
            venv.EnvBuilder(with_pip=True, clear=True).create(env_dir)
        install = subprocess.run(
            [str(python), "-m", "pip", "install", "--quiet", requirement],
            capture_output=True,
            text=True,
            timeout=INSTALL_TIMEOUT,
            check=False,
        )
    except (OSError, subprocess.SubprocessError) as exc:
        return None, f"could not create its environment in {env_dir}: {exc}"
    if install.returncode != 0 or not works():
        lines = (install.stderr or install.stdout).strip().splitlines()
        last = [line for line in lines if not line.startswith("WARNING")][-1:] or ["(no output)"]
        return None, f"pip install {requirement} failed (exit {install.returncode}): {last[0]}"
    return python, ""


def peer_version(python: Path, name: str) -> str:
    done = subprocess.run(
        [str(python), "-m", "pip", "show", name], capture_output=True, text=True, check=False
    )
    for line in done.stdout.splitlines():
        if line.startswith("Version:"):
            return line.split(":", 1)[1].strip()
    return "?"


# ---------------------------------------------------------------------------------------------
# Part 1: the CI job
# ---------------------------------------------------------------------------------------------


def part_ci(
    work: Path, scratch: Path, quick: bool, rounds: int, targets: Targets, peers: bool
) -> None:
    n = 200 if quick else 1000
    print(f"\n## CI job: {n} run files, a suite of 15 checks ({load_line()})", flush=True)
    folder = write_run_files(work, n)
    programs = scratch
    for name, source in child_sources().items():
        (programs / f"e2e_{name}.py").write_text(source)
    suite_file = scratch / "support.suite.json"
    suite_file.write_text(json.dumps(SUITE_FILE, indent=1))
    report = scratch / "cli-report.json"
    py = sys.executable
    sides = {
        "hand": [py, str(programs / "e2e_hand.py"), str(folder), "suite"],
        "api": [py, str(programs / "e2e_api.py"), str(folder), "suite"],
        "floor": [py, str(programs / "e2e_floor.py"), str(folder)],
        "cli": [
            *agent_asserts_cli(),
            *("check", str(suite_file), "--record", str(folder), "--output", str(report)),
        ],
    }
    available: dict[str, Path] = {}
    if peers:
        for name in PEERS:
            python, why = peer_python(name)
            if python is None:
                print(f"  {name}: not measured: {why}", flush=True)
            else:
                available[name] = python
                print(f"  {name} {peer_version(python, name)}: {python}", flush=True)
    if "pydantic-evals" in available:
        sides["pydantic-evals"] = [
            str(available["pydantic-evals"]),
            str(programs / "e2e_pydantic.py"),
            str(folder),
        ]
    if "agentevals" in available:
        sides["hand:trajectory"] = [py, str(programs / "e2e_hand.py"), str(folder), "trajectory"]
        sides["api:trajectory"] = [py, str(programs / "e2e_api.py"), str(folder), "trajectory"]
        sides["agentevals"] = [
            str(available["agentevals"]),
            str(programs / "e2e_agentevals.py"),
            str(folder),
        ]
    if "deepeval" in available:
        sides["hand:tools"] = [py, str(programs / "e2e_hand.py"), str(folder), "tools"]
        sides["api:tools"] = [py, str(programs / "e2e_api.py"), str(folder), "tools"]
        sides["deepeval"] = [
            str(available["deepeval"]),
            str(programs / "e2e_deepeval.py"),
            str(folder),
        ]
    small = str(write_run_files(work, 20))
    warm_up = {
        name: [small if arg == str(folder) else arg for arg in argv] for name, argv in sides.items()
    }
    samples = interleaved(
        sides, rounds, cwd=scratch, warm_up=warm_up
    )  # a peer may write files where it runs
    cpu = {name: median_cpu(s) for name, s in samples.items()}
    wall = {name: median_wall(s) for name, s in samples.items()}

    # Every side's decisions, to show they did the same work.
    decided: dict[str, list[int]] = {}
    for name, s in samples.items():
        if name == "cli":
            data = json.loads(report.read_text())
            decided[name] = cli_failures(data)
        else:
            decided[name] = list(s[-1].json()["failures"])  # type: ignore[arg-type]
    print(
        f"\n  {'side':18} {'CPU median':>11} {'wall median':>12} {'x hand script':>14}"
        "  failures per check"
    )
    for name in sides:
        base = "hand" + (name[name.index(":") :] if ":" in name else "")
        if name == "agentevals":
            base = "hand:trajectory"
        elif name == "deepeval":
            base = "hand:tools"
        ratio = cpu[name] / cpu[base]
        print(
            f"  {name:18} {fmt(cpu[name]):>11} {fmt(wall[name]):>12} {ratio:>13.2f}x"
            f"  {decided[name]}"
        )
    agree_suite = all(
        decided[n] == decided["hand"]
        for n in ("api", "floor", "cli", "pydantic-evals")
        if n in decided
    )
    print(f"  every 15-check side made the same decisions as the hand script: {agree_suite}")
    agree = agree_suite
    if "agentevals" in decided:
        same = decided["agentevals"] == decided["hand:trajectory"] == decided["api:trajectory"]
        print(f"  trajectory sides agree: {same}")
        agree = agree and same
    if "deepeval" in decided:
        same = decided["deepeval"] == decided["hand:tools"] == decided["api:tools"]
        print(f"  tool-correctness sides agree: {same}")
        agree = agree and same
    print(f"  ({rounds} rounds, sides interleaved; {load_line()})")
    r_api = cpu["api"] / cpu["hand"]
    r_cli = cpu["cli"] / cpu["hand"]
    print(
        f"  the floor (the library imported, one frozen attrs object per event, check and result,"
        f" nothing validated): {cpu['floor'] / cpu['hand']:.2f}x the script; the API is"
        f" {cpu['api'] / cpu['floor']:.2f}x the floor"
    )
    targets.check(
        "ci: Python API <= 2.5x the script",
        r_api <= 2.5,
        f"{r_api:.2f}x ({fmt(cpu['api'])} vs {fmt(cpu['hand'])})",
    )
    targets.check(
        "ci: CLI <= 3x the script",
        r_cli <= 3.0,
        f"{r_cli:.2f}x ({fmt(cpu['cli'])} vs {fmt(cpu['hand'])})",
    )
    if "pydantic-evals" in cpu:
        ours = max(cpu["api"], cpu["cli"])
        targets.check(
            "ci: faster than pydantic-evals (15 checks)",
            ours < cpu["pydantic-evals"],
            f"pydantic-evals {fmt(cpu['pydantic-evals'])} vs ours (slower of API/CLI) {fmt(ours)}: "
            f"{cpu['pydantic-evals'] / ours:.2f}x",
        )
    if "agentevals" in cpu:
        targets.check(
            "ci: faster than agentevals (trajectory check)",
            cpu["api:trajectory"] < cpu["agentevals"],
            f"agentevals {fmt(cpu['agentevals'])} vs ours {fmt(cpu['api:trajectory'])}: "
            f"{cpu['agentevals'] / cpu['api:trajectory']:.2f}x",
        )
    if "deepeval" in cpu:
        targets.check(
            "ci: faster than DeepEval (tool correctness)",
            cpu["api:tools"] < cpu["deepeval"],
            f"DeepEval {fmt(cpu['deepeval'])} vs ours {fmt(cpu['api:tools'])}: "
            f"{cpu['deepeval'] / cpu['api:tools']:.2f}x",
        )
    if not agree:  # a ratio between sides that decided differently compares different work
        targets.check("ci: every side made the same decisions", False, "see the failures per check")


def cli_failures(report: dict[str, object]) -> list[int]:
    """Failures per check from the CLI's JSON report (results in the suite's order)."""
    failures: list[int] = []
    cases = report.get("cases")
    assert isinstance(cases, list), list(report)
    for case in cases:
        results = case.get("results") or []
        if not failures:
            failures = [0] * len(results)
        for i, r in enumerate(results):
            failures[i] += r.get("status") != "pass"
    return failures


# ---------------------------------------------------------------------------------------------
# Part 2: scale (JSON Lines, serial vs pools; memory)
# ---------------------------------------------------------------------------------------------

SCALE_CHILD = """
import json, resource, sys, time
from concurrent.futures import ProcessPoolExecutor
from agent_asserts import evaluate_many, iter_records
from agent_asserts.loaders import load


def main():
    mode, path, suite_path = sys.argv[1], sys.argv[2], sys.argv[3]
    suite = load(suite_path)
    extra = {}
    if mode == "serial":
        t0 = time.perf_counter()
        batch = evaluate_many(iter_records(path), suite, keep_results=False)
    elif mode == "pool":
        t0 = time.perf_counter()
        with ProcessPoolExecutor(2) as pool:
            batch = evaluate_many(iter_records(path), suite, executor=pool, keep_results=False)
    elif mode == "dask":
        from distributed import Client, LocalCluster
        s0 = time.perf_counter()
        cluster = LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                               dashboard_address=None)
        client = Client(cluster)
        extra["startup"] = time.perf_counter() - s0
        t0 = time.perf_counter()
        batch = evaluate_many(
            iter_records(path), suite, executor=client.get_executor(), keep_results=False
        )
    seconds = time.perf_counter() - t0
    counts = batch.verdict_counts()
    if mode == "dask":
        client.close()
        cluster.close()
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    print(json.dumps({"seconds": seconds, "cases": len(batch), "verdicts": counts,
                      "maxrss_kb": rss, **extra}))


if __name__ == "__main__":
    main()
"""


def part_scale(work: Path, scratch: Path, n: int, rounds: int, targets: Targets) -> None:
    small = n // 10
    print(f"\n## Scale: {n:,} runs streamed from one JSON Lines file ({load_line()})", flush=True)
    path = write_jsonl(work, n)
    small_path = write_jsonl(work, small)
    suite_file = scratch / "support.suite.json"
    suite_file.write_text(json.dumps(SUITE_FILE, indent=1))
    program = scratch / "e2e_scale.py"
    program.write_text(SCALE_CHILD)
    py = sys.executable
    try:
        import distributed  # noqa: F401

        has_dask = True
    except ImportError:
        has_dask = False
        print("  Dask: not measured: `distributed` is not installed in this environment")
    modes = ["serial", "pool"] + (["dask"] if has_dask else [])
    results: dict[str, list[dict[str, object]]] = {m: [] for m in modes}
    cpu: dict[str, list[float]] = {m: [] for m in modes}
    for r in range(rounds):
        for mode in modes[r % len(modes) :] + modes[: r % len(modes)]:
            done = run_child([py, str(program), mode, str(path), str(suite_file)])
            results[mode].append(done.json())
            cpu[mode].append(done.cpu)
            print(
                f"  round {r + 1} {mode:6}: {fmt(float(done.json()['seconds']))} wall, "  # type: ignore[arg-type]
                f"{fmt(done.cpu)} CPU with workers",
                flush=True,
            )
    secs = {m: statistics.median(float(x["seconds"]) for x in results[m]) for m in modes}  # type: ignore[arg-type]
    print(
        f"\n  {'mode':8} {'wall median':>12} {'per run':>10} {'CPU (with workers)':>20}  verdicts"
    )
    for m in modes:
        print(
            f"  {m:8} {fmt(secs[m]):>12} {fmt(secs[m] / n):>10}"
            f" {fmt(statistics.median(cpu[m])):>20}  "
            f"{results[m][-1]['verdicts']}"
        )
    if has_dask:
        startup = statistics.median(float(x["startup"]) for x in results["dask"])  # type: ignore[arg-type]
        print(f"  (Dask LocalCluster start-up, not counted above: {fmt(startup)})")
    serial_cpu = statistics.median(cpu["serial"])
    bounds = ", ".join(
        f"{m} {serial_cpu / (statistics.median(cpu[m]) / 2):.2f}x" for m in modes if m != "serial"
    )
    print(
        "  best speed-up two idle cores could give with this much CPU (serial CPU over half the"
        f" mode's CPU): {bounds}"
    )
    print(f"  ({rounds} rounds; {load_line()})")
    r_pool = secs["serial"] / secs["pool"]
    targets.check("scale: ProcessPoolExecutor(2) >= 1.6x serial", r_pool >= 1.6, f"{r_pool:.2f}x")
    if has_dask:
        r_dask = secs["serial"] / secs["dask"]
        targets.check("scale: Dask LocalCluster(2) >= 1.3x serial", r_dask >= 1.3, f"{r_dask:.2f}x")

    # Peak memory of a serial batch at two sizes: the serial runs above, and n / 10 runs.
    small_peaks = []
    for _ in range(rounds):
        done = run_child([py, str(program), "serial", str(small_path), str(suite_file)])
        small_peaks.append(done.maxrss_kb)
    low = statistics.median(small_peaks) / 1024
    high = statistics.median(int(x["maxrss_kb"]) for x in results["serial"]) / 1024  # type: ignore[call-overload]
    print(
        f"  peak memory (ru_maxrss of the child), serial: {small:,} runs {low:.0f} MB,"
        f" {n:,} runs {high:.0f} MB"
    )
    targets.check(
        "scale: peak memory independent of the number of runs",
        high <= low * 1.25,
        f"{high:.0f} MB at {n:,} runs vs {low:.0f} MB at {small:,}"
        f" ({high / low:.2f}x, target <= 1.25x)",
    )


# ---------------------------------------------------------------------------------------------
# Part 3: growth (time per run vs calls per run, per check)
# ---------------------------------------------------------------------------------------------

GROWTH_CHECKS: list[tuple[str, str, tuple[object, ...], dict[str, object]]] = [
    (CHECK_LABELS[0], "called_tool", ("lookup_order",), {"arguments": {"order_id": ORDER}}),
    (CHECK_LABELS[1], "called_tool", ("get_customer",), {"arguments": {"customer_id": CUSTOMER}}),
    (
        CHECK_LABELS[2],
        "called_tool",
        ("issue_refund",),
        {"arguments": {"order_id": ORDER, "amount": 42.5}},
    ),
    (
        CHECK_LABELS[3],
        "called_tool",
        ("send_email",),
        {"arguments": {"template": "refund_confirmation"}},
    ),
    (CHECK_LABELS[4], "not_called_tool", ("delete_account",), {}),
    (CHECK_LABELS[5], "not_called_tool", ("cancel_order",), {}),
    (CHECK_LABELS[6], "not_called_tool", ("transfer_funds",), {}),
    (CHECK_LABELS[7], "tool_order", ("lookup_order", "issue_refund"), {}),
    (CHECK_LABELS[8], "tool_order", ("get_customer", "send_email"), {}),
    (CHECK_LABELS[9], "called_tool", ("issue_refund",), {"count": 1}),
    (CHECK_LABELS[10], "model_calls_at_most", (MAX_MODEL_CALLS,), {}),
    (CHECK_LABELS[11], "total_tokens_at_most", (TOKEN_BUDGET,), {}),
    (CHECK_LABELS[12], "output_matches", (REPLY_PATTERN,), {}),
    (CHECK_LABELS[13], "matches_trajectory", (REFERENCE_JSON,), {"order": "unordered"}),
    (CHECK_LABELS[14], "no_failed_actions", (), {}),
]


WHOLE = "all 15 checks on one record"


def slope(xs: list[float], ys: list[float]) -> float:
    """Least-squares slope of log(y) over log(x)."""
    lx = [math.log(x) for x in xs]
    ly = [math.log(max(y, 1e-9)) for y in ys]
    mx, my = statistics.fmean(lx), statistics.fmean(ly)
    return sum((a - mx) * (b - my) for a, b in zip(lx, ly, strict=True)) / sum(
        (a - mx) ** 2 for a in lx
    )


def part_growth(quick: bool, targets: Targets) -> None:
    from agent_asserts import EvalContext, TrialRecord

    sizes = [10, 100, 1000] if quick else [10, 100, 1000, 10_000]
    print(
        f"\n## Growth: time per run, runs of {'-'.join(f'{s:,}' for s in sizes)} calls"
        f" ({load_line()})",
        flush=True,
    )
    table: dict[str, list[float]] = {label: [] for label, *_ in GROWTH_CHECKS}
    table[WHOLE] = []
    table["load (TrialRecord.from_trace)"] = []
    for size in sizes:
        docs = [json.dumps(make_run(7_000 + k, n_calls=size)) for k in range(3)]
        # Fresh records for every timing: no per-record cache is reused between samples.
        per_sample = max(1, 200 // size)  # building records is most of this part's time
        samples: dict[str, list[float]] = {k: [] for k in table}
        for round_ in range(5):
            for label, method, args, kwargs in GROWTH_CHECKS:
                # the previous sample's records (``record`` still holds its last one) are freed
                # here, not inside the next timing
                record = records = None  # type: ignore[assignment]
                records = [
                    TrialRecord.from_trace(json.loads(docs[(round_ + i) % 3]))
                    for i in range(per_sample)
                ]
                gc.collect()  # the collector's pass over the new records is not the check's
                t0 = time.process_time()
                for record in records:
                    getattr(EvalContext(record), method)(*args, **kwargs)
                samples[label].append((time.process_time() - t0) / per_sample)
            record = records = None  # type: ignore[assignment]
            records = [
                TrialRecord.from_trace(json.loads(docs[(round_ + i) % 3]))
                for i in range(per_sample)
            ]
            gc.collect()
            t0 = time.process_time()
            for record in records:
                ctx = EvalContext(record)
                for _, method, args, kwargs in GROWTH_CHECKS:
                    getattr(ctx, method)(*args, **kwargs)
            samples[WHOLE].append((time.process_time() - t0) / per_sample)
            record = records = ctx = loaded = None  # type: ignore[assignment]
            parsed = [json.loads(docs[(round_ + i) % 3]) for i in range(per_sample)]
            gc.collect()
            t0 = time.process_time()
            loaded = [TrialRecord.from_trace(data) for data in parsed]
            samples["load (TrialRecord.from_trace)"].append((time.process_time() - t0) / per_sample)
            assert len(loaded) == per_sample  # freed at the next round, outside the timing
        for k in table:
            table[k].append(statistics.median(samples[k]))
        print(f"  {size:,} calls measured", flush=True)
    head = "".join(f"{f'{s:,} calls':>13}" for s in sizes)
    print(f"\n  {'check':40}{head}  exponent")
    worst = ("", 0.0)
    for label, ys in table.items():
        b = slope([float(s) for s in sizes], ys)
        print(f"  {label:40}" + "".join(f"{fmt(y):>13}" for y in ys) + f"  {b:8.2f}")
        if b > worst[1] and label in CHECK_LABELS:
            worst = (label, b)
    print(
        f"  (CPU per run, median of 5 samples, each check on freshly loaded records; {load_line()})"
    )
    over = [
        label
        for label, ys in table.items()
        if label in CHECK_LABELS and slope([float(s) for s in sizes], ys) > 1.1
    ]
    targets.check(
        "growth: exponent <= 1.1 for every check",
        not over,
        f"largest {worst[1]:.2f} ({worst[0]})" + (f"; over: {', '.join(over)}" if over else ""),
    )


# ---------------------------------------------------------------------------------------------
# Part 4: cold start
# ---------------------------------------------------------------------------------------------

COLD_CHILD = """
import json, sys, time
c0, w0 = time.process_time(), time.perf_counter()
from agent_asserts import EvalContext, TrialRecord
c1, w1 = time.process_time(), time.perf_counter()
ctx = EvalContext(TrialRecord.load(sys.argv[1]))
ok = ctx.called_tool("lookup_order", arguments={"order_id": "A1049"}).result.passed
c2, w2 = time.process_time(), time.perf_counter()
print(json.dumps({"import_cpu": c1 - c0, "import_wall": w1 - w0,
                  "first_cpu": c2 - c1, "first_wall": w2 - w1, "passed": ok}))
"""


def part_cold(scratch: Path, quick: bool, targets: Targets) -> None:
    runs = 7 if quick else 15
    print(f"\n## Cold start ({runs} fresh processes each; {load_line()})", flush=True)
    one = scratch / "one-run.json"
    one.write_text(json.dumps(make_run(1, n_calls=None)))
    suite_file = scratch / "support.suite.json"
    suite_file.write_text(json.dumps(SUITE_FILE, indent=1))
    program = scratch / "e2e_cold.py"
    program.write_text(COLD_CHILD)
    sides = {
        "cli": [*agent_asserts_cli(), "check", str(suite_file), "--record", str(one)],
        "first": [sys.executable, str(program), str(one)],
    }
    samples = interleaved(sides, runs)
    cli_cpu, cli_wall = median_cpu(samples["cli"]), median_wall(samples["cli"])
    data = [m.json() for m in samples["first"]]
    imp_cpu = statistics.median(float(d["import_cpu"]) for d in data)  # type: ignore[arg-type]
    imp_wall = statistics.median(float(d["import_wall"]) for d in data)  # type: ignore[arg-type]
    first_cpu = statistics.median(float(d["first_cpu"]) for d in data)  # type: ignore[arg-type]
    first_wall = statistics.median(float(d["first_wall"]) for d in data)  # type: ignore[arg-type]
    print(f"  {'':46} {'CPU median':>11} {'wall median':>12}")
    print(
        f"  {'agent-asserts check, one file (whole process)':46}"
        f" {fmt(cli_cpu):>11} {fmt(cli_wall):>12}"
    )
    print(f"  {'import agent_asserts':46} {fmt(imp_cpu):>11} {fmt(imp_wall):>12}")
    print(
        f"  {'first check after import (load + called_tool)':46}"
        f" {fmt(first_cpu):>11} {fmt(first_wall):>12}"
    )
    print(
        "  (targets judged on CPU time: the other processes of a shared machine disturb it least)"
    )
    targets.check("cold: agent-asserts check on one file <= 400 ms", cli_cpu <= 0.4, fmt(cli_cpu))
    targets.check("cold: first check after import <= 150 ms", first_cpu <= 0.15, fmt(first_cpu))
    targets.check("cold: import agent_asserts <= 150 ms", imp_cpu <= 0.15, fmt(imp_cpu))


# ---------------------------------------------------------------------------------------------


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "parts", nargs="*", default=["all"], choices=["all", "ci", "scale", "growth", "cold"]
    )
    parser.add_argument("--quick", action="store_true", help="small sizes, for a smoke run")
    parser.add_argument(
        "--rounds", type=int, default=None, help="rounds per side (default 5, quick 2)"
    )
    parser.add_argument(
        "--scale-runs", type=int, default=None, help="runs of the scale part (100,000; quick 5,000)"
    )
    parser.add_argument(
        "--scale-rounds", type=int, default=1, help="rounds of each scale mode (default 1)"
    )
    parser.add_argument("--no-peers", action="store_true", help="leave the peers out of the CI job")
    parser.add_argument(
        "--work", type=Path, default=CACHE / "end_to_end", help="where the data is made"
    )
    args = parser.parse_args(argv)
    parts = {"ci", "scale", "growth", "cold"} if "all" in args.parts else set(args.parts)
    rounds = args.rounds or (2 if args.quick else 5)
    args.work.mkdir(parents=True, exist_ok=True)
    import agent_asserts

    tree = Path(agent_asserts.__file__).resolve().parent.parent
    head = subprocess.run(
        ["git", "-C", str(tree), "log", "-1", "--format=%h %s"],
        capture_output=True,
        text=True,
        check=False,
    ).stdout.strip()
    dirty = subprocess.run(
        ["git", "-C", str(tree), "status", "--porcelain", "--", "agent_asserts"],
        capture_output=True,
        text=True,
        check=False,
    ).stdout.strip()
    head += " + uncommitted changes to agent_asserts/" if dirty else ""
    print(f"agent_asserts {agent_asserts.__version__} from {tree} (git: {head or 'unknown'})")
    print(
        f"Python {sys.version.split()[0]}, {load_line()},"
        f" {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}"
    )
    targets = Targets()
    scratch = Path(tempfile.mkdtemp(prefix="run-", dir=args.work))  # this run's programs
    try:
        return run_parts(args, parts, rounds, scratch, targets)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


def run_parts(
    args: argparse.Namespace, parts: set[str], rounds: int, scratch: Path, targets: Targets
) -> int:
    if "ci" in parts:
        part_ci(args.work, scratch, args.quick, rounds, targets, peers=not args.no_peers)
    if "scale" in parts:
        n = args.scale_runs or (5_000 if args.quick else 100_000)
        part_scale(args.work, scratch, n, args.scale_rounds, targets)
    if "growth" in parts:
        part_growth(args.quick, targets)
    if "cold" in parts:
        part_cold(scratch, args.quick, targets)
    return targets.summary()


if __name__ == "__main__":
    raise SystemExit(main())
