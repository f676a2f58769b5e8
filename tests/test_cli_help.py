"""Every sub-command teaches itself: a description, help on every option, examples that parse."""

from __future__ import annotations

import argparse
import shlex
from pathlib import Path

import pytest

from evo_wordle.cli import build_parser

ROOT = Path(__file__).resolve().parents[1]


def _subparsers(parser: argparse.ArgumentParser, prefix: tuple[str, ...] = ()):
    """(command path, parser) for every sub-command, nested ones (``plot heatmap``) included."""
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                yield (*prefix, name), sub
                yield from _subparsers(sub, (*prefix, name))


COMMANDS = list(_subparsers(build_parser()))


def _examples(parser: argparse.ArgumentParser) -> list[str]:
    lines = (parser.epilog or "").splitlines()
    return [ln.strip() for ln in lines if ln.startswith("  evo-wordle ")]


def test_every_command_is_walked():
    names = {" ".join(path) for path, _ in COMMANDS}
    assert {"bench", "compare", "solve", "assist", "plot", "plot heatmap", "ga-tree", "rank"} <= names


@pytest.mark.parametrize("path,parser", COMMANDS, ids=[" ".join(p) for p, _ in COMMANDS])
def test_description_option_help_and_examples(path, parser, monkeypatch, capsys):
    assert parser.description and len(parser.description) > 20, f"{path}: no description"
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            continue
        what = action.option_strings or action.dest
        assert action.help and action.help != argparse.SUPPRESS, f"{path}: {what} has no help"
        assert action.metavar is None or not str(action.metavar).endswith("_"), f"{path}: metavar {action.metavar}"
    text = parser.format_help()
    assert "%%" not in text and "LAMBDA_" not in text
    examples = _examples(parser)
    assert len(examples) >= 2, f"{path}: {len(examples)} examples"
    # every example is a command line this parser accepts (run from the repository root)
    monkeypatch.chdir(ROOT)
    root = build_parser()
    for example in examples:
        argv = shlex.split(example.split("  #")[0])[1:]
        assert tuple(argv[: len(path)]) == path, example
        root.parse_args(argv)  # SystemExit(2) on an unknown option or a bad value


def test_bench_help_lists_every_solver_from_the_registry(capsys):
    from evo_wordle.solvers import SOLVERS, load_all

    load_all()
    bench = dict(COMMANDS)[("bench",)]
    text = bench.format_help()
    assert "solvers (--solver NAME):" in text
    lines = text.split("solvers (--solver NAME):")[1].splitlines()
    assert len([ln for ln in lines if ln.strip()]) == len(SOLVERS)
    for name in SOLVERS:
        rows = [ln for ln in lines if ln.split()[:1] == [name]]
        assert len(rows) == 1, name
        assert len(rows[0]) <= 120 and len(rows[0].split()) > 3, rows[0]


def test_the_program_name_alone_prints_the_help_and_succeeds(capsys):
    """Typing ``evo-wordle`` alone asks for help: the help on stdout, nothing on stderr, exit 0."""
    from evo_wordle.cli import main

    assert main([]) == 0
    out, err = capsys.readouterr()
    assert out.startswith("usage: evo-wordle") and "examples:" in out and err == ""
