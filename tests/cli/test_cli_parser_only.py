"""``agent-asserts --help`` and usage errors run the parser only: the subcommand that runs is
imported then (``cli.COMMANDS``), so asking for help never loads the checks."""

from __future__ import annotations

import importlib
import subprocess
import sys
import textwrap

import pytest

from agent_asserts.cli import COMMANDS, build_parser, main, seconds


def test_help_imports_no_subcommand_and_no_check() -> None:
    code = textwrap.dedent(
        """
        import contextlib, io, sys
        from agent_asserts.cli import main
        with contextlib.redirect_stdout(io.StringIO()), contextlib.suppress(SystemExit):
            main(["--help"])
        loaded = sorted(m for m in sys.modules if m.startswith("agent_asserts."))
        print(" ".join(loaded))
        """
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=60
    )
    loaded = set(done.stdout.split())
    assert "agent_asserts.cli" in loaded
    assert not loaded & {
        "agent_asserts.cli.check",
        "agent_asserts.cli.watch",
        "agent_asserts.context",
        "agent_asserts.checks",
        "agent_asserts.batch",
        "agent_asserts.loaders",
    }


def test_every_subcommand_of_the_parser_has_its_function() -> None:
    parser = build_parser()
    (commands,) = [a for a in parser._actions if a.dest == "command"]
    assert commands.choices is not None
    assert set(commands.choices) == set(COMMANDS)
    for module, name in COMMANDS.values():
        assert callable(getattr(importlib.import_module(module), name))


@pytest.mark.parametrize("command", ["check", "watch"])
@pytest.mark.parametrize("option", ["--timeout", "--judge-timeout"])
@pytest.mark.parametrize("value", ["1e300", "1e10", "1000000000.5"])
def test_a_time_limit_too_long_for_the_system_is_a_usage_error(
    command: str, option: str, value: str, capsys: pytest.CaptureFixture[str]
) -> None:
    where = ["--record-dir", "."] if command == "watch" else []
    with pytest.raises(SystemExit) as exc:
        main([command, "suite.yaml", *where, option, value])
    assert exc.value.code == 2
    assert capsys.readouterr().err.splitlines()[-1] == (
        f"agent-asserts {command}: error: argument {option}: must be at most 1000000000 "
        f"seconds, about 31 years (got {value!r})"
    )
    assert seconds("1000000000") == 1e9  # the longest limit is taken
