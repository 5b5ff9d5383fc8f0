"""Parsing YAML and JSON into position-carrying nodes (agent_asserts.loaders.source)."""

from __future__ import annotations

import math
import sys
from pathlib import Path

import pytest
import yaml

from agent_asserts.loaders import load
from agent_asserts.loaders.collector import LoadError
from agent_asserts.loaders.nodes import MappingNode, ScalarNode, SequenceNode, to_plain
from agent_asserts.loaders.source import parse_data, parse_file, parse_text

# libyaml's loader where this PyYAML build has it, and always the pure-Python one.
LOADERS = ["c", "pure"] if getattr(yaml, "__with_libyaml__", False) else ["pure"]


@pytest.fixture(params=LOADERS)
def loader(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    """Run a test with libyaml's loader and with the pure-Python one."""
    if request.param == "pure":
        monkeypatch.delattr(yaml, "CSafeLoader", raising=False)
    return str(request.param)


def error_text(text: str, file: str = "s.yml") -> str:
    with pytest.raises(LoadError) as info:
        parse_text(text, file=file)
    return str(info.value)


@pytest.mark.usefixtures("loader")
class TestYaml12Scalars:
    @pytest.mark.parametrize(
        ("text", "expected"),
        [
            ("on", "on"),
            ("off", "off"),
            ("yes", "yes"),
            ("no", "no"),
            ("y", "y"),
            ("n", "n"),
            ("No", "No"),
            ("true", True),
            ("True", True),
            ("TRUE", True),
            ("false", False),
            ("FALSE", False),
            ("null", None),
            ("Null", None),
            ("~", None),
            ("", None),
            ("012", 12),
            ("0o17", 15),
            ("0x1F", 31),
            ("-7", -7),
            ("+3", 3),
            ("1_000", "1_000"),
            ("0b101", "0b101"),
            ("1.5", 1.5),
            ("1e3", 1000.0),
            (".5", 0.5),
            ("12:30", "12:30"),
            ("2024-01-01", "2024-01-01"),
            ("'true'", "true"),
            ('"12"', "12"),
            ("!!str 12", "12"),
            ("!!str true", "true"),
            ("!!float 3", 3.0),
            ("!!int 0x10", 16),
            ("!!bool false", False),
            ("!!null null", None),
        ],
    )
    def test_scalar(self, text: str, expected: object) -> None:
        value = to_plain(parse_text(f"v: {text}\n")).get("v")
        assert value == expected
        assert type(value) is type(expected)

    def test_special_floats(self) -> None:
        doc = to_plain(parse_text("[.inf, -.Inf, .NaN]"))
        assert doc[0] == math.inf
        assert doc[1] == -math.inf
        assert math.isnan(doc[2])

    def test_keys_stay_strings(self) -> None:
        assert to_plain(parse_text("on: 1\nyes: 2\nno: 3\n")) == {"on": 1, "yes": 2, "no": 3}

    def test_bad_explicit_tag_value(self) -> None:
        assert error_text("a: !!int x\n") == "s.yml:1:4: a: 'x' is not a valid !!int"


@pytest.mark.usefixtures("loader")
class TestPositions:
    def test_mapping_and_sequence_positions(self) -> None:
        doc = parse_text("name: x\nchecks:\n  - max_steps: 3\n  - tool_order: [a, b]\n")
        assert isinstance(doc, MappingNode)
        checks = doc.get("checks")
        assert isinstance(checks, SequenceNode)
        second = checks.items[1]
        assert isinstance(second, MappingNode)
        b = second.get("tool_order").items[1]  # type: ignore[union-attr]
        assert (b.line, b.col, b.path_str) == (4, 21, "checks[1].tool_order[1]")
        assert b.where == "<string>:4:21"
        key = second.keys["tool_order"]
        assert (key.line, key.col) == (4, 5)

    def test_json_has_positions(self) -> None:
        doc = parse_text('{\n  "checks": [\n    {"max_steps": 3}\n  ]\n}\n', file="s.json")
        item = doc.get("checks").items[0].get("max_steps")  # type: ignore[union-attr]
        assert isinstance(item, ScalarNode)
        assert (item.value, item.line, item.col, item.path_str) == (3, 3, 19, "checks[0].max_steps")

    def test_json_with_tabs(self) -> None:
        doc = parse_text('{\n\t"a":\t[1,\t"\\/x"]\n}', file="s.json")
        a = doc.get("a")  # type: ignore[union-attr]
        assert to_plain(a) == [1, "/x"]
        assert (a.line, a.col) == (2, 7)  # type: ignore[union-attr]

    def test_json_long_key(self) -> None:
        key = "k" * 2000
        assert to_plain(parse_text(f'{{"{key}": 1}}', file="s.json")) == {key: 1}

    def test_aliases_get_the_path_where_used(self) -> None:
        doc = parse_text("a: &x {k: 1}\nb: *x\n")
        k = doc.get("b").get("k")  # type: ignore[union-attr]
        assert (k.path_str, k.line) == ("b.k", 1)

    def test_data_has_no_positions(self) -> None:
        doc = parse_data({"a": [1]})
        assert doc.get("a").items[0].where == "<data>"  # type: ignore[union-attr]


@pytest.mark.usefixtures("loader")
class TestStructureProblems:
    def test_duplicate_keys_name_both_positions(self) -> None:
        assert error_text("checks:\n  - a: 1\n    b: 2\n    a: 3\n") == (
            "s.yml:4:5: checks[0]: duplicate key 'a' (first defined at line 2, column 5)"
        )

    def test_duplicate_keys_in_json(self) -> None:
        assert error_text('{"a": 1,\n "a": 2}', file="s.json") == (
            "s.json:2:2: duplicate key 'a' (first defined at line 1, column 2)"
        )

    def test_unknown_tags_and_merge_keys(self) -> None:
        text = "base: &b {x: 1}\nuse:\n  <<: *b\n  y: !custom 2\nz: !!binary aGk=\n"
        assert error_text(text) == (
            "s.yml:3:3: use: merge keys ('<<') are not supported\n"
            "s.yml:4:6: use.y: unsupported tag '!custom'\n"
            "s.yml:5:4: z: unsupported tag '!!binary'"
        )

    def test_quoted_merge_key_is_a_plain_key(self) -> None:
        assert to_plain(parse_text('"<<": 1')) == {"<<": 1}

    def test_non_string_keys(self) -> None:
        assert error_text("1: a\n? [x]\n: b\n") == (
            "s.yml:1:1: mapping keys must be strings (got 1)\n"
            "s.yml:2:3: mapping keys must be strings (got a list)"
        )

    def test_recursive_alias(self) -> None:
        assert error_text("a: &r [*r]\n") == (
            "s.yml:1:4: a[0]: an alias refers to its own anchor (recursive data)"
        )

    def test_alias_bomb_is_refused(self) -> None:
        lines = ["a0: &a0 [x, x, x, x, x, x, x, x, x, x]"]
        lines += [f"a{i}: &a{i} [{', '.join([f'*a{i - 1}'] * 10)}]" for i in range(1, 8)]
        assert "alias expansion" in error_text("\n".join(lines))

    @pytest.mark.parametrize("text", ["", "# nothing\n", "---\n"])
    def test_empty(self, text: str) -> None:
        assert error_text(text) == "s.yml:1:1: the document is empty"

    def test_several_documents(self) -> None:
        assert error_text("a: 1\n---\nb: 2\n") == (
            "s.yml:2:1: a suite file holds one YAML document (a second one starts here)"
        )


@pytest.mark.usefixtures("loader")
class TestSyntaxErrors:
    def test_unterminated_quote(self) -> None:
        assert error_text('name: "refund\nchecks: []\n') == (
            "s.yml:3:1: invalid YAML: found unexpected end of stream "
            "(while scanning a quoted scalar at line 1, column 7)"
        )

    def test_bad_indentation_has_a_position(self) -> None:
        text = error_text("a:\n  - 1\n b: 2\n")
        assert text.startswith("s.yml:3:2: invalid YAML: ")
        assert "Traceback" not in text

    def test_broken_json(self) -> None:
        text = error_text('{"checks": [\n  {"max_steps": 3}\n  {"max_steps": 4}\n]}', "s.json")
        assert text == "s.json:3:3: invalid JSON: Expecting ',' delimiter"

    def test_broken_yaml_that_looks_like_json_without_json_name(self) -> None:
        assert error_text('{"a": [1, 2}').startswith("s.yml:1:12: invalid YAML: ")


class TestJsonWithoutPyYAML:
    @pytest.fixture(autouse=True)
    def _no_yaml(self, monkeypatch: pytest.MonkeyPatch) -> None:
        monkeypatch.setitem(sys.modules, "yaml", None)  # import yaml now raises ImportError

    def test_values_without_positions(self) -> None:
        doc = parse_text('{"checks": [{"max_steps": 3}]}', file="s.json")
        item = doc.get("checks").items[0]  # type: ignore[union-attr]
        assert (item.line, item.col, item.where, item.path_str) == (
            None,
            None,
            "s.json",
            "checks[0]",
        )
        assert to_plain(doc) == {"checks": [{"max_steps": 3}]}

    def test_syntax_error_keeps_line_and_column(self) -> None:
        assert error_text('{"a": 1,\n "b" 2}', "s.json") == (
            "s.json:2:6: invalid JSON: Expecting ':' delimiter"
        )

    def test_duplicate_keys_name_the_path(self) -> None:
        assert (
            error_text('{"c": [{"a": 1, "a": 2}]}', "s.json") == "s.json: c[0]: duplicate key 'a'"
        )

    def test_nan_is_not_json(self) -> None:
        assert error_text('{"a": NaN}', "s.json") == "s.json: invalid JSON: NaN is not a JSON value"

    def test_yaml_needs_the_extra(self, tmp_path: Path) -> None:
        path = tmp_path / "s.yml"
        path.write_text("a: 1\n")
        with pytest.raises(ImportError, match="pip install 'agent-asserts\\[yaml\\]'"):
            parse_file(path)

    def test_json_file(self, tmp_path: Path) -> None:
        path = tmp_path / "s.json"
        path.write_text('{"a": [true, null]}')
        assert to_plain(parse_file(path)) == {"a": [True, None]}


def test_undecodable_file(tmp_path: Path) -> None:
    path = tmp_path / "s.yml"
    path.write_bytes(b"a: \xff\n")
    with pytest.raises(LoadError, match="cannot be read as UTF-8"):
        parse_file(path)


def test_byte_order_mark(tmp_path: Path) -> None:
    path = tmp_path / "s.yml"
    path.write_bytes("\ufeffa: 1\n".encode())
    assert to_plain(parse_file(path)) == {"a": 1}


def test_core_does_not_import_yaml() -> None:
    import subprocess

    code = "import sys, agent_asserts; print('yaml' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('{"checks": [{"max_steps": 1,}]}', "bad.json:1:29: invalid JSON: Expecting property name"),
        ("{checks: [{max_steps: 1}]} # c", "bad.json:1:2: invalid JSON: Expecting property name"),
    ],
)
def test_a_json_file_must_be_json_even_with_the_yaml_extra(
    tmp_path: Path, text: str, message: str
) -> None:
    path = tmp_path / "bad.json"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(LoadError) as info:
        load(path)
    assert str(info.value).startswith(str(tmp_path / message))
