"""The documents the fuzz properties start from, and the mutations applied to them.

Seeds are real documents: every suite example of ``docs/`` (the YAML/JSON code blocks of the
Markdown pages and ``docs/examples``), the suite files of the tests' data folders, and every
trace-format fixture of ``tests/record/adapters/fixtures`` (plus, for long runs, any folder named
in ``AGENT_ASSERTS_FUZZ_SAMPLES``, e.g. ``~/traces/samples``). A mutated
document is a seed with a few of: a key dropped or renamed, a value swapped for another type,
set to null, nested past the depth limit, a huge or odd number, odd Unicode, or (in text) a YAML
tag, an alias, a 5,000-digit integer or a cut.
"""

from __future__ import annotations

import copy
import json
import os
import re
from collections.abc import Iterator
from functools import cache
from pathlib import Path
from typing import Any

import yaml
from hypothesis import strategies as st

REPO = Path(__file__).resolve().parents[2]
SUITE_DIRS = ["docs/examples", "tests/cxas/data", "tests/sop/data", "tests/mantle/data",
              "tests/contract/data", "tests/loaders/data"]  # fmt: skip
TRACE_DIRS = ["tests/record/adapters/fixtures", "docs/examples/runs", "tests/mantle/data",
              "tests/fuzz/seeds"]  # fmt: skip
FENCE = re.compile(r"^```([a-z]*)\n(.*?)^```", re.S | re.M)
ODD_TEXT = ["", " ", "\x00", "\x1b[2J", "\u202e", "\u2028", "\ud800", "é" * 3, "🙂", "\ufeff",
            "a" * 300, "$regex", "*", "null", "1e999", "-0", "\t\n"]  # fmt: skip
ODD_NUMBERS = [0, -1, 2**63, -(2**64), 10**300, 1e308, -1e-320, 0.1, float("inf"), 1.5]
KEYS = ["name", "checks", "cases", "record", "type", "op", "value", "expect", "steps", "tool",
        "arguments", "events", "kind", "payload", "role", "content", "$regex"]  # fmt: skip


def _parsed(text: str) -> list[Any]:
    docs: list[Any] = []
    try:
        docs = [d for d in yaml.safe_load_all(text) if isinstance(d, dict | list) and d]
    except (yaml.YAMLError, ValueError, TypeError):  # a broken test file: not a seed
        return []
    return docs


def _file_docs(path: Path) -> list[Any]:
    text = path.read_text(encoding="utf-8", errors="replace")
    if path.suffix == ".jsonl":
        out = []
        for line in text.splitlines():
            try:
                out.append(json.loads(line))
            except ValueError:
                continue
        return [d for d in out if isinstance(d, dict | list)]
    return _parsed(text)


def _files(folders: list[str | Path], suffixes: tuple[str, ...]) -> Iterator[Path]:
    for folder in folders:
        root = folder if isinstance(folder, Path) else REPO / folder
        if root.is_dir():
            yield from sorted(p for p in root.rglob("*") if p.suffix in suffixes and p.is_file())


@cache
def suite_seeds() -> tuple[Any, ...]:
    """Every suite-like document of docs/ (code blocks and examples) and the tests' data."""
    docs: list[Any] = []
    for page in sorted((REPO / "docs").glob("*.md")):
        for lang, body in FENCE.findall(page.read_text(encoding="utf-8")):
            if lang in ("", "yaml", "json", "yml"):
                docs.extend(_parsed(body))
    for path in _files(SUITE_DIRS, (".yaml", ".yml", ".json")):
        docs.extend(_file_docs(path))
    return tuple(docs)


@cache
def trace_seeds() -> tuple[Any, ...]:
    """Every trace-format fixture of the tests (and of ``AGENT_ASSERTS_FUZZ_SAMPLES``)."""
    folders: list[str | Path] = list(TRACE_DIRS)
    extra = os.environ.get("AGENT_ASSERTS_FUZZ_SAMPLES")
    if extra:
        folders.extend(Path(p) for p in extra.split(os.pathsep))
    docs: list[Any] = []
    for path in _files(folders, (".json", ".jsonl")):
        docs.extend(_file_docs(path))
    return tuple(docs)


def _paths(value: Any, prefix: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    yield prefix
    if len(prefix) > 30:  # never inside a nest made deep by an earlier mutation
        return
    if isinstance(value, dict):
        for key, child in value.items():
            yield from _paths(child, (*prefix, key))
    elif isinstance(value, list):
        for index, child in enumerate(value):
            yield from _paths(child, (*prefix, index))


def _nest(value: Any, levels: int, mapping: bool) -> Any:
    for _ in range(levels):
        value = {"a": value} if mapping else [value]
    return value


def json_like(scalars: Any, keys: Any, *, size: int, leaves: int, tuples: bool = False) -> Any:
    """JSON-like data: ``scalars`` in lists (and tuples) and mappings keyed by ``keys``."""

    def containers(inner: Any) -> Any:
        made = [st.lists(inner, max_size=size), st.dictionaries(keys, inner, max_size=size)]
        return st.one_of(*made, *([st.tuples(inner, inner)] if tuples else []))

    return st.recursive(scalars, containers, max_leaves=leaves)


scalars = st.one_of(st.none(), st.booleans(), st.sampled_from(ODD_NUMBERS),
                    st.sampled_from(ODD_TEXT), st.text(max_size=6), st.integers())  # fmt: skip
small: Any = json_like(
    scalars, st.one_of(st.sampled_from(KEYS), st.text(max_size=4)), size=3, leaves=8
)


def _replacement(draw: Any, old: Any) -> Any:
    """What a mutation puts at a path (``DROP`` deletes it)."""
    choice = draw(st.sampled_from(["null", "swap", "deep", "odd", "empty", "drop", "rename",
                                   "wrap", "dup"]))  # fmt: skip
    if choice == "null":
        return None
    if choice == "swap":
        return draw(small)
    if choice == "deep":
        levels = draw(st.sampled_from([199, 200, 201, 1_000, 20_000]))
        return _nest(old, levels, draw(st.booleans()))
    if choice == "odd":
        return draw(st.sampled_from(ODD_NUMBERS + ODD_TEXT))
    if choice == "empty":
        return draw(st.sampled_from([{}, [], ""]))
    if choice == "wrap":
        return draw(st.sampled_from([[old], {"value": old}, {"$regex": old}]))
    return (choice, old)  # drop / rename / dup: done by the parent


def _mutate_once(draw: Any, doc: Any) -> Any:
    path = draw(st.sampled_from(list(_paths(doc))))
    new = _replacement(draw, _get(doc, path))
    if not path:
        return new if not isinstance(new, tuple) else doc
    parent, last = _get(doc, path[:-1]), path[-1]
    if isinstance(new, tuple):
        op, old = new
        if op == "drop":
            del parent[last]
        elif op == "dup" and isinstance(parent, list):
            parent.insert(last, copy.copy(old))
        elif op == "rename" and isinstance(parent, dict):
            near = [str(last)[:-1] or "x", str(last) + "s", str(last).upper()]
            renamed = draw(st.one_of(st.sampled_from(KEYS + near), st.text(max_size=6)))
            parent[renamed] = parent.pop(last)
        return doc
    parent[last] = new
    return doc


def _get(doc: Any, path: tuple[Any, ...]) -> Any:
    for part in path:
        doc = doc[part]
    return doc


@st.composite
def mutated(draw: Any, seeds: tuple[Any, ...]) -> Any:
    """A seed (deep-copied) with one to four mutations."""
    doc = copy.deepcopy(draw(st.sampled_from(seeds)))
    for _ in range(draw(st.integers(1, 4))):
        doc = _mutate_once(draw, doc)
    return doc


SNIPPETS = ["!x ", "!!python/object/apply:os.system ['echo hi'] ", "!!binary ", "&a ", "*a ",
            "*nope ", "<<: *a\n", "1" * 5000, "\t", "\x00", "\ufeff", "{", "]", "- ", ": ",
            "\n", "'", '"', "? ", "!!int ", "!!float ", "%YAML 1.1\n---\n", "---\n",
            "\u2028", "0x1F", "1_000", ".inf", "~"]  # fmt: skip


@st.composite
def mutated_text(draw: Any, seeds: tuple[Any, ...]) -> str:
    """A mutated seed dumped as YAML or JSON, then edited as text (tags, aliases, cuts)."""
    doc = draw(mutated(seeds))
    try:
        if draw(st.booleans()):
            text = json.dumps(doc, ensure_ascii=False, indent=1)
        else:
            text = yaml.safe_dump(doc, allow_unicode=True, sort_keys=False)
    except (ValueError, RecursionError, yaml.YAMLError):  # too deep, odd floats: as Python
        text = repr(doc)[:5000] if not isinstance(doc, list | dict) else "[" * 30_000
    for _ in range(draw(st.integers(0, 3))):
        at = draw(st.integers(0, len(text)))
        if draw(st.integers(0, 4)) == 0:
            text = text[:at] + text[at + draw(st.integers(1, 20)) :]
        else:
            text = text[:at] + draw(st.sampled_from(SNIPPETS)) + text[at:]
    return text
