"""From a file, text or Python data to one document node, or a :class:`LoadError`.

YAML and JSON both go through PyYAML when it is installed (JSON is YAML 1.2, and the positions
are the same); without PyYAML, JSON is read with :mod:`json` and YAML asks for the extra.

>>> doc = parse_text('{"checks": [{"max_steps": 3}]}', file="s.json")
>>> doc.get("checks").items[0].where
's.json:1:13'
>>> try:
...     parse_text('a: "unterminated', file="s.yml")
... except LoadError as err:
...     print(err)
s.yml:1:17: invalid YAML: found unexpected end of stream (while scanning a quoted scalar ...)
"""

from __future__ import annotations

import os
import re
from typing import Any

from agent_asserts._depth import MAX_DEPTH, depth_message
from agent_asserts._files import read_bytes
from agent_asserts.errors import Unavailable
from agent_asserts.loaders.collector import ProblemCollector
from agent_asserts.loaders.errors import LoadError, LoadProblem
from agent_asserts.loaders.json_reader import is_json, read_json
from agent_asserts.loaders.nodes import MappingNode, Node, SequenceNode, from_plain
from agent_asserts.loaders.yaml_reader import read_yaml, yaml_module

YAML_MISSING = str(
    Unavailable("reading YAML needs PyYAML", extra="yaml", note="(JSON needs nothing)")
)


def parse_text(text: str, *, file: str = "<string>", json_expected: bool | None = None) -> Node:
    """Parse YAML or JSON ``text``; every problem found raises one :class:`LoadError`.

    ``file`` is the name problems show. ``json_expected`` (default: ``file`` ends with
    ``.json``) reports syntax errors as JSON ones, and lets the text be read with :mod:`json`
    when PyYAML is missing.

    >>> parse_text("checks: [succeeded]", file="s.yml").items["checks"].where
    's.yml:1:9'
    """
    if json_expected is None:
        json_expected = file.lower().endswith(".json")
    problems = ProblemCollector(file)
    node = parse_into(text, problems, json_expected=json_expected)
    problems.raise_if_any()
    if node is None:  # pragma: no cover - a None document always comes with a problem
        raise LoadError([LoadProblem(file, None, None, "", "the document is empty")])
    return node


def parse_into(
    text: str, problems: ProblemCollector, *, json_expected: bool = False
) -> Node | None:
    """Like :func:`parse_text`, but adds problems to ``problems`` (the node may still be used).

    >>> p = ProblemCollector("s.yml")
    >>> parse_into("a: 1\\na: 2\\n", p).get("a").value, len(p)
    (1, 1)
    """
    if not _valid_text(text, problems):
        return None
    node = _parse(text, problems, json_expected)
    deep = None if node is None else node_too_deep(node)
    if deep is not None:
        problems.add(deep, depth_message())
        return None
    return node


def _valid_text(text: str, problems: ProblemCollector) -> bool:
    """Text holding a lone surrogate (only a Python string can) is no Unicode text."""
    found = _SURROGATE.search(text)
    if found is None:
        return True
    line = text.count("\n", 0, found.start()) + 1
    col = found.start() - (text.rfind("\n", 0, found.start()) + 1) + 1
    problems.add_at(line, col, "", f"invalid text: a lone surrogate {found.group()!r} "
                    "(not a Unicode character)")  # fmt: skip
    return False


_SURROGATE = re.compile("[\ud800-\udfff]")


def node_too_deep(node: Node, limit: int = MAX_DEPTH) -> Node | None:
    """The first node nested deeper than ``limit`` (the outermost container is level 1), found
    without recursion, or None.

    >>> node_too_deep(parse_text("a: [[1]]"), limit=2).path_str
    'a[0]'
    >>> node_too_deep(parse_text("a: [1]"), limit=2) is None
    True
    """
    stack: list[tuple[Node, int]] = [(node, 1)]
    while stack:
        current, level = stack.pop()
        children: Any = ()
        if isinstance(current, MappingNode):
            children = current.items.values()
        elif isinstance(current, SequenceNode):
            children = current.items
        else:
            continue
        if level > limit:
            return current
        stack.extend((child, level + 1) for child in children)
    return None


def _parse(text: str, problems: ProblemCollector, json_expected: bool) -> Node | None:
    if yaml_module() is None:
        if json_expected or text.lstrip()[:1] in ("{", "["):
            return read_json(text, problems)
        raise Unavailable("reading YAML needs PyYAML", extra="yaml", note="(JSON needs nothing)")
    if json_expected and text.strip() and not is_json(text):
        # YAML accepts more than JSON (trailing commas, comments, bare keys): a .json file must
        # be JSON, with or without the yaml extra, so JSON's own message is reported.
        return read_json(text, problems)
    attempt = ProblemCollector(problems.file)
    node = read_yaml(text, attempt)
    if node is None and text.strip():
        if is_json(text):
            # Valid JSON that PyYAML rejects (tabs between tokens, keys over 1024 characters):
            # tabs outside strings are only whitespace in JSON, so replacing them keeps
            # positions.
            attempt = ProblemCollector(problems.file)
            node = read_yaml(text.replace("\t", " "), attempt)
            if node is None:
                return read_json(text, problems)
        elif json_expected:  # a broken .json file: say what JSON says about it
            return read_json(text, problems)
    problems.problems.extend(attempt.problems)
    return node


def read_source(path: str | os.PathLike[str]) -> tuple[str, str]:
    """The text of a suite file and the name its problems show (the path as given).

    Undecodable bytes, a path that is not a regular file (a device, a FIFO, a dangling
    symbolic link) and a file over the size limit (:mod:`agent_asserts._files`) raise a
    :class:`LoadError`; a missing file raises ``FileNotFoundError``.

    >>> import tempfile
    >>> from pathlib import Path
    >>> with tempfile.TemporaryDirectory() as tmp:
    ...     _ = Path(tmp, "s.yml").write_text("checks: [succeeded]", encoding="utf-8-sig")
    ...     read_source(Path(tmp, "s.yml"))[0]
    'checks: [succeeded]'
    """
    display = os.fspath(path)

    def refuse(reason: str) -> LoadError:
        return LoadError([LoadProblem(display, None, None, "", reason)])

    try:
        text = read_bytes(display, refuse).decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        problem = LoadProblem(display, None, None, "", f"cannot be read as UTF-8 ({exc.reason})")
        raise LoadError([problem]) from None
    return text, display


def parse_file(path: str | os.PathLike[str]) -> Node:
    """Read and parse a suite file (``.json`` files need no PyYAML).

    >>> import tempfile, pathlib
    >>> with tempfile.TemporaryDirectory() as d:
    ...     p = pathlib.Path(d, "s.yml"); _ = p.write_text("name: x\\n")
    ...     parse_file(p).get("name").value
    'x'
    """
    text, display = read_source(path)
    return parse_text(text, file=display)


def parse_data(data: Any) -> Node:
    """Nodes for already parsed data; problems then show ``<data>`` and the key path.

    >>> parse_data({"a": 1}).get("a").where
    '<data>'
    """
    return from_plain(data, file="<data>")


__all__ = ["YAML_MISSING", "parse_data", "parse_file", "parse_into", "parse_text", "read_source"]
