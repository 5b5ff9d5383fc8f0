"""The quick reading of a suite (issue 25, item 14: memory per MB of suite file).

``load``/``loads`` first read JSON with :mod:`json` and YAML from PyYAML's events, into nodes
without positions or key paths; a document with any problem is read again the full way, so
every message and position is what it was. These tests hold that the two readings agree.
"""

from __future__ import annotations

from pathlib import Path

import attrs
import pytest

from agent_asserts.loaders import LoadError, _build, load, loads
from agent_asserts.loaders.collector import ProblemCollector
from agent_asserts.loaders.dialects import BuildContext
from agent_asserts.loaders.nodes import MappingNode, ScalarNode, SequenceNode, to_plain
from agent_asserts.loaders.source import parse_into, read_json_quick, read_yaml_quick

pytest.importorskip("yaml")

ROOT = Path(__file__).resolve().parents[2]
SUITE_FILES = sorted(
    path
    for folder in (ROOT / "docs", ROOT / "tests")
    for pattern in ("*.yml", "*.yaml", "*.json")
    for path in folder.rglob(pattern)
    if "fuzz" not in path.parts and path.stat().st_size < 200_000
)


def _quick(text: str, json_expected: bool) -> object:
    quick = read_json_quick(text, "s") if text.lstrip()[:1] in ("{", "[") else None
    if quick is None and not json_expected:
        quick = read_yaml_quick(text, "s")
    return quick


def _suite(doc: object) -> str:
    ctx = attrs.evolve(BuildContext.for_source(None, dialect=""), problems=ProblemCollector("s"))
    try:
        return repr(_build(doc, ctx, None))  # type: ignore[arg-type]
    except LoadError:
        return "LoadError"


def test_every_yaml_and_json_file_of_the_docs_and_tests_reads_the_same_both_ways() -> None:
    quick_read = 0
    for path in SUITE_FILES:
        text = path.read_text(encoding="utf-8-sig", errors="replace")
        json_expected = path.suffix == ".json"
        quick = _quick(text, json_expected)
        problems = ProblemCollector("s")
        full = parse_into(text, problems, json_expected=json_expected)
        if quick is None:
            continue
        quick_read += 1
        assert full is not None and not problems.problems, path
        assert repr(to_plain(quick)) == repr(to_plain(full)), path  # type: ignore[arg-type]
        assert _suite(quick) == _suite(full), path
    assert quick_read > len(SUITE_FILES) // 2, (quick_read, len(SUITE_FILES))


def test_quick_nodes_have_no_position_or_path_and_share_equal_scalars() -> None:
    doc = read_json_quick('{"a": ["soft", "soft", 1.0, -0.0, 1000, 1000]}', "s.json")
    assert isinstance(doc, MappingNode) and doc.line is None and doc.path == ()
    items = doc.items["a"]
    assert isinstance(items, SequenceNode)
    first, second, one, zero, big, big_again = items.items
    assert first is second and first.where == "s.json"  # one node for each string
    assert isinstance(zero, ScalarNode) and repr(zero.value) == "-0.0"  # floats kept apart
    assert one != zero and big is not big_again and big == big_again


@pytest.mark.parametrize(
    "text",
    [
        '{"a": 1, "a": 2}',  # a duplicate key
        '{"a": NaN}',  # not strict JSON
        '{"a": ' + "1" * 5000 + "}",  # past Python's digit limit
        '{"a": "\ud800"}',  # a lone surrogate in the text itself
        "[" * 201 + "]" * 201,  # past the nesting limit
        "[" * 100_000 + "]" * 100_000,  # past the parser's own limit
    ],
)
def test_json_the_quick_reading_leaves_to_the_full_one(text: str) -> None:
    assert read_json_quick(text, "s.json") is None


@pytest.mark.parametrize(
    "text",
    [
        "a: &x 1\nb: *x\n",  # anchors and aliases (the alias budgets)
        "a: *x\n",  # an undefined alias
        "a: !!str 1\n",  # tags
        "a: ! 1\n",
        "a: !x 1\n",
        "<<: {a: 1}\n",  # a merge key
        "1: a\n",  # a key that is not a string
        "~: a\n",
        "[a]: 1\n",
        "? {a: 1}\n: 1\n",
        "a: 1\na: 2\n",  # a duplicate key
        "a: " + "1" * 5000 + "\n",  # past Python's digit limit
        "",  # no document
        "# only a comment\n",
        "~\n",  # an empty document
        "a: 1\n---\nb: 2\n",  # a second document
        "a: [1\n",  # a syntax error
        "a: '\ud800'\n",  # a lone surrogate
        "a:" + " [" * 201 + "]" * 201,  # past the nesting limit
    ],
)
def test_yaml_the_quick_reading_leaves_to_the_full_one(text: str) -> None:
    assert read_yaml_quick(text, "s.yml") is None


def test_yaml_quick_reading_resolves_the_yaml_1_2_core_schema() -> None:
    text = "a: [yes, on, 012, 0x1F, 1e3, ~, '', \"5\", .nan, -.inf, '<<']\nb: |\n  x\n"
    quick, full = read_yaml_quick(text, "s.yml"), parse_into(text, ProblemCollector("s"))
    assert quick is not None and full is not None
    assert repr(to_plain(quick)) == repr(to_plain(full))
    assert "<<" in repr(to_plain(quick))  # a quoted '<<' is a string, not a merge key


@pytest.mark.parametrize(("text", "name"), [
    ('{"checks": [{"max_step": 3}]}', "s.json"),
    ("checks:\n  - max_step: 3\n", "s.yml"),
])  # fmt: skip
def test_a_problem_is_reported_where_it_was_written(text: str, name: str) -> None:
    with pytest.raises(LoadError) as caught:
        loads(text, name=name)
    where = "s.json:1:14" if name == "s.json" else "s.yml:2:5"
    assert str(caught.value) == (
        f"{where}: checks[0]: unknown check 'max_step' (did you mean 'max_steps'?)"
    )


def test_two_evals_of_one_name_are_refused_when_read_quickly() -> None:
    # the quick reading shares the node of equal names: the CX Agent Studio dialect told
    # duplicates apart by node identity
    text = '{"evals": [{"name": "a"}, {"name": "a"}]}'
    assert read_json_quick(text, "s.json") is not None
    with pytest.raises(LoadError) as caught:
        loads(text, dialect="cxas")
    assert str(caught.value) == (
        "<string>:1:36: evals[1].name: duplicate eval name 'a' (first defined at line 1, column 21)"
    )


def test_a_suite_file_reads_the_same_both_ways(tmp_path: Path) -> None:
    text = "name: s\ncases:\n  - name: a\n    checks: [succeeded, {max_steps: 3}]\n"
    (tmp_path / "s.yml").write_text(text, encoding="utf-8")
    assert repr(load(tmp_path / "s.yml").cases) == repr(loads(text, dialect="native").cases)
