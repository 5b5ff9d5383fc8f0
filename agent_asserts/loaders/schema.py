"""The JSON Schema of the native dialect, generated from the check classes.

The schema is shipped as ``agent_asserts/loaders/native.schema.json`` so that editors can
complete and validate suite files (for example with the YAML language server:
``# yaml-language-server: $schema=<path to native.schema.json>``). Regenerate it after adding a
check class with ``python -m agent_asserts.loaders.schema``; a test keeps the shipped file
equal to :func:`native_schema`.

>>> schema = native_schema()
>>> schema["$defs"]["check.max_steps"]["properties"]["max_steps"]["anyOf"][1]
{'type': 'integer'}
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from agent_asserts._files import write_atomic
from agent_asserts.checks.data import Signature, TypeSpec
from agent_asserts.loaders.suite import check_signatures, expect_signatures
from agent_asserts.matching import OPERATORS

SCHEMA_PATH = Path(__file__).with_name("native.schema.json")
"""Where the shipped schema lives."""

_SCALAR_TYPES = {"str": "string", "int": "integer", "float": "number", "bool": "boolean"}


def _operators() -> list[str]:
    return sorted(OPERATORS)


def type_schema(spec: TypeSpec) -> dict[str, Any]:
    """The schema of one field type.

    >>> type_schema(TypeSpec("str", nullable=True))
    {'anyOf': [{'type': 'string'}, {'type': 'null'}]}
    """
    if spec.kind in _SCALAR_TYPES:
        out: dict[str, Any] = {"type": _SCALAR_TYPES[spec.kind]}
    elif spec.kind == "choice":
        out = {"enum": list(spec.choices)}
    elif spec.kind in ("count", "selector"):
        out = {"$ref": f"#/$defs/{spec.kind}"}
    elif spec.kind == "list":
        out = {"type": "array", "items": type_schema(spec.item or TypeSpec("any"))}
    elif spec.kind == "data":
        out = {"type": "object"}
    elif spec.kind == "union":
        out = {"anyOf": [type_schema(option) for option in spec.options]}
    else:
        out = {"$ref": "#/$defs/value"}
    if spec.nullable:
        return {"anyOf": [out, {"type": "null"}]}
    return out


def _arguments(sig: Signature) -> dict[str, Any]:
    """Every way to write the arguments of one check: keywords, positional value(s), null.

    A list fills the fluent method's positional parameters (``sig.call_positional``) in
    order; for a ``list_entries`` check it is instead a non-empty list of single-check
    arguments (a value or keywords), one check per item.

    >>> from agent_asserts.checks.conversation import MemoryWasSet
    >>> from agent_asserts.checks.data import signature
    >>> [form.get("type") for form in _arguments(signature(MemoryWasSet))["anyOf"]]
    ['object', 'string', 'array']
    """
    params = [p for p in sig.params if p.spec.yaml_ok]
    required = [p.name for p in params if p.required]
    keywords: dict[str, Any] = {
        "type": "object",
        "properties": {p.name: type_schema(p.spec) for p in params},
        "additionalProperties": False,
    }
    if required:
        keywords["required"] = required
    forms: list[dict[str, Any]] = [keywords]
    by_name = {p.name: p for p in params}
    positional = [sig.param(n) for n in sig.call_positional]
    varargs = by_name.get(sig.varargs) if sig.varargs else None
    first = positional[0] if positional else None
    if varargs is not None and not positional:
        forms.append(type_schema(varargs.spec.item or TypeSpec("any")))
    elif first is not None:
        forms.append(_positional_schema(first.spec))
    if sig.list_entries:
        one = {"anyOf": [dict(form) for form in forms]}
        forms.append({"type": "array", "items": one, "minItems": 1})
    elif varargs is not None or len(positional) > 1:
        # a parameter that takes a Python callable can only be left null in a list
        prefix = [
            type_schema(p.spec) if p is not None and p.spec.yaml_ok else {"type": "null"}
            for p in positional
        ]
        array: dict[str, Any] = {"type": "array"}
        if prefix:
            array["prefixItems"] = prefix
        if varargs is not None:
            array["items"] = type_schema(varargs.spec.item or TypeSpec("any"))
        else:
            array["items"] = False
        forms.append(array)
    if not required:
        forms.append({"type": "null"})
    return {"anyOf": forms}


def _positional_schema(spec: TypeSpec) -> dict[str, Any]:
    """A value in the positional place: a mapping there always means keywords, except an
    operator mapping (``output_equals: {$regex: ...}``)."""
    if spec.kind == "any":
        out: dict[str, Any] = {"$ref": "#/$defs/argument"}
    elif spec.kind == "selector":
        out = {"type": "string"}
    elif spec.kind == "count":
        out = {"type": "integer", "minimum": 0}
    else:
        return type_schema(spec)
    return {"anyOf": [out, {"type": "null"}]} if spec.nullable else out


def _siblings() -> dict[str, Any]:
    return {
        "severity": {"enum": ["gate", "soft"]},
        "at_least": {"type": "number", "minimum": 0, "maximum": 1},
        "label": {"type": "string"},
        "name": {"type": "string", "minLength": 1},
    }


def _expect(sigs: dict[str, Signature]) -> dict[str, Any]:
    properties: dict[str, Any] = {
        "value": {"type": "string", "description": "a record field or a JSON Pointer"},
        "initial": {"type": "boolean"},
        "literal": {"$ref": "#/$defs/value"},
    }
    for method, sig in sorted(sigs.items()):
        for param in sig.params:
            if param.name == "expected":
                properties[method] = type_schema(param.spec)
            elif param.name != "source":
                properties.setdefault(param.name, type_schema(param.spec))
    properties.update(_siblings())
    return {
        "type": "object",
        "properties": properties,
        "additionalProperties": False,
        "oneOf": [{"required": [method]} for method in sorted(sigs)],
        "anyOf": [{"required": ["value"]}, {"required": ["literal"]}],
    }


def native_schema() -> dict[str, Any]:
    """Build the native dialect's JSON Schema (draft 2020-12) from the registered checks.

    >>> native_schema()["$schema"]
    'https://json-schema.org/draft/2020-12/schema'
    """
    sigs = dict(sorted(check_signatures().items()))
    operator = {
        "type": "object",
        "propertyNames": {"enum": _operators()},
        "minProperties": 1,
        "maxProperties": 1,
    }
    defs: dict[str, Any] = {
        "operator": operator,
        "value": {
            "description": "any value; a mapping of one $-operator is a matcher",
            "anyOf": [{"$ref": "#/$defs/operator"}, {}],
        },
        "argument": {"anyOf": [{"not": {"type": "object"}}, {"$ref": "#/$defs/operator"}]},
        "count": {
            "anyOf": [
                {"type": "integer", "minimum": 0},
                *(
                    {"type": "object", "properties": {k: s}, "required": [k],
                     "additionalProperties": False}
                    for k, s in (
                        ("exactly", {"type": "integer", "minimum": 0}),
                        ("at_least", {"type": "integer", "minimum": 0}),
                        ("at_most", {"type": "integer", "minimum": 0}),
                        ("between", {"type": "array", "items": {"type": "integer"},
                                     "minItems": 2, "maxItems": 2}),
                    )
                ),
            ]
        },
        "selector": {"anyOf": [{"type": "string"}, {"type": "object"}]},
        "expect": _expect(expect_signatures()),
    }  # fmt: skip
    entries: list[dict[str, Any]] = []
    for method, sig in sigs.items():
        defs[f"check.{method}"] = {
            "type": "object",
            "properties": {method: _arguments(sig), **_siblings()},
            "required": [method],
            "additionalProperties": False,
        }
        entries.append({"$ref": f"#/$defs/check.{method}"})
    bare = [m for m, s in sigs.items() if not any(p.required for p in s.params)]
    entries.append({"type": "object", "properties": {"expect": {"$ref": "#/$defs/expect"}},
                    "required": ["expect"], "additionalProperties": False})  # fmt: skip
    entries.append({"enum": bare})
    defs["entry"] = {"anyOf": entries}
    defs["checks"] = {"type": "array", "items": {"$ref": "#/$defs/entry"}}
    case_props = {
        "name": {"type": "string", "minLength": 1},
        "record": {"type": "string", "minLength": 1},
        "record_format": {"type": "string", "minLength": 1},
        "metadata": {"type": "object"},
        "initial_memory": {"type": "object"},
        "checks": {"$ref": "#/$defs/checks"},
    }
    defs["case"] = {
        "type": "object",
        "properties": case_props,
        "required": ["checks"],
        "additionalProperties": False,
    }
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": "agent_asserts native suite",
        "description": "Generated from the check classes by agent_asserts.loaders.schema.",
        "type": "object",
        "properties": {
            **case_props,
            "cases": {"type": "array", "items": {"$ref": "#/$defs/case"}, "minItems": 1},
        },
        "additionalProperties": False,
        "anyOf": [{"required": ["checks"]}, {"required": ["cases"]}],
        "not": {"required": ["checks", "cases"]},
        "$defs": defs,
    }


def schema_text() -> str:
    """The schema as the shipped file holds it (2-space JSON, trailing newline).

    >>> text = schema_text()
    >>> json.loads(text) == native_schema(), text.splitlines()[1]
    (True, '  "$schema": "https://json-schema.org/draft/2020-12/schema",')
    """
    return json.dumps(native_schema(), indent=2, ensure_ascii=False) + "\n"


def write_schema(path: str | Path | None = None) -> Path:
    """Write the schema (default: the shipped ``native.schema.json``) and return the path.

    >>> import tempfile
    >>> with tempfile.TemporaryDirectory() as tmp:
    ...     write_schema(Path(tmp, "native.schema.json")).read_text() == schema_text()
    True
    """
    target = Path(path) if path is not None else SCHEMA_PATH
    return write_atomic(target, schema_text())


def load_schema() -> dict[str, Any]:
    """The shipped schema.

    >>> load_schema()["title"]
    'agent_asserts native suite'
    """
    data: dict[str, Any] = json.loads(SCHEMA_PATH.read_text(encoding="utf-8"))
    return data


if __name__ == "__main__":  # pragma: no cover
    print(write_schema(sys.argv[1] if len(sys.argv) > 1 else None))


__all__ = [
    "SCHEMA_PATH",
    "load_schema",
    "native_schema",
    "schema_text",
    "type_schema",
    "write_schema",
]
