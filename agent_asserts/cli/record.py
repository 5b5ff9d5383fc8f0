"""``agent-asserts record PATH [--format NAME] [--json]``: show a trace as the checks see it.

Every run of ``PATH`` (a file or folder in any registered format) is read as ``check`` would
read it, then printed: a table of its events (id, kind, agent, turn, name, outcome, duration)
and its parse errors, or with ``--json`` the canonical record (a JSON array when there are
several runs). Exit 0 when everything was read, 2 when the input cannot be read or holds
no run.

>>> import json, pathlib, tempfile
>>> path = pathlib.Path(tempfile.mkdtemp()) / "run.json"
>>> _ = path.write_text(json.dumps({"detailed_trace": ["User Query: hi", "Agent Text: hello"]}))
>>> main_record([str(path)])  # doctest: +ELLIPSIS +NORMALIZE_WHITESPACE
run.json: 2 events, status -, reply 'hello'
id  kind     agent  turn  name   outcome  duration
e0  message  -      1     hi     -        -
e1  message  -      1     hello  -        -
0
"""

from __future__ import annotations

import argparse
import itertools
import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import IO, Any

from agent_asserts.record import TrialRecord
from agent_asserts.record.event import Event
from agent_asserts.record.reading import iter_records

EXIT_OK = 0
EXIT_INPUT = 2
COLUMNS = ("id", "kind", "agent", "turn", "name", "outcome", "duration")
NAME_WIDTH = 40


def add_record_parser(commands: Any) -> None:
    """Add the ``record`` subcommand to the command's subparsers."""
    record = commands.add_parser("record", help="print a trace file as the checks see it")
    record.add_argument("path", metavar="PATH", help="a trace file or a folder of them")
    record.add_argument(
        "--format", default="auto", metavar="NAME",
        help="the trace format (default: auto, detected from the data)",
    )  # fmt: skip
    record.add_argument("--json", action="store_true", help="print the canonical record(s)")


def _short(text: str) -> str:
    text = " ".join(text.split())
    return text if len(text) <= NAME_WIDTH else text[: NAME_WIDTH - 1] + "…"


def event_name(event: Event) -> str:
    """What the table shows as an event's name: the tool, the text, the model, the sub-agent.

    >>> event_name(TrialRecord.builder().tool("refund").build().events[0])
    'refund'
    """
    payload = event.payload
    for attribute in ("name", "subagent", "model", "skill_id", "text", "summary"):
        value = getattr(payload, attribute, None)
        if value is None and isinstance(payload, dict):
            value = payload.get(attribute)
        if isinstance(value, str) and value:
            return _short(value)
    return event.event_type or "-"


def _cell(value: Any) -> str:
    if value is None:
        return "-"
    if isinstance(value, float):
        return f"{value:.3f}s"
    return str(value)


def event_row(event: Event) -> tuple[str, ...]:
    """One table row: id, kind, agent, turn, name, outcome, duration."""
    outcome = getattr(event.payload, "outcome", None)
    if outcome is None and event.kind == "delegation":
        outcome = event.event_type
    duration = getattr(event, "duration", None)
    return (
        event.event_id,
        event.kind,
        _cell(getattr(event, "agent", None)),
        _cell(event.turn),
        event_name(event),
        _cell(outcome),
        _cell(float(duration) if duration is not None else None),
    )


def table(record: TrialRecord) -> str:
    """The events of a record as aligned columns, then its parse errors."""
    rows = [COLUMNS, *(event_row(e) for e in record.events)]
    widths = [max(len(row[i]) for row in rows) for i in range(len(COLUMNS))]
    lines = [
        "  ".join(c.ljust(w) for c, w in zip(row, widths, strict=True)).rstrip() for row in rows
    ]
    if record.parse_errors:
        lines.append(f"parse errors ({len(record.parse_errors)}):")
        lines.extend(f"  {error}" for error in record.parse_errors)
    return "\n".join(lines)


def _header(label: str, record: TrialRecord) -> str:
    reply = record.reply
    shown = repr(_short(reply)) if reply is not None else "-"
    return f"{label}: {len(record.events)} events, status {record.status or '-'}, reply {shown}"


def run_record(args: argparse.Namespace, out: IO[str], err: IO[str]) -> int:
    """The ``record`` subcommand: 0 when every run was read, 2 when the input could not be."""
    path = Path(args.path)
    if not path.exists():
        err.write(f"agent-asserts record: {args.path}: no such file or folder\n")
        return EXIT_INPUT
    count = 0
    several = False
    try:
        records = iter_records(path, args.format)
        ahead = [r for r in (next(records, None), next(records, None)) if r is not None]
        several = len(ahead) > 1
        for count, record in enumerate(itertools.chain(ahead, records), 1):
            if args.json:
                text = json.dumps(record.to_dict(), indent=2, ensure_ascii=False)
                if several:
                    text = ("[\n" if count == 1 else ",\n") + text
                out.write(text if several else text + "\n")
            else:
                label = f"{path.name}#{count}" if several else path.name
                out.write(("" if count == 1 else "\n") + _header(label, record) + "\n")
                out.write(table(record) + "\n")
    except (ValueError, OSError) as exc:
        if args.json and several:
            out.write("\n]\n")
        err.write(f"agent-asserts record: cannot read {args.path}: {exc}\n")
        return EXIT_INPUT
    if not count:
        err.write(f"agent-asserts record: {args.path}: no run was read\n")
        return EXIT_INPUT
    if args.json and several:
        out.write("\n]\n")
    return EXIT_OK


def main_record(argv: Sequence[str]) -> int:
    """Run ``agent-asserts record`` with ``argv`` (for tests and doctests)."""
    parser = argparse.ArgumentParser(prog="agent-asserts")
    add_record_parser(parser.add_subparsers(dest="command", required=True))
    args = parser.parse_args(["record", *argv])
    return run_record(args, sys.stdout, sys.stderr)


__all__ = ["add_record_parser", "event_name", "event_row", "main_record", "run_record", "table"]
