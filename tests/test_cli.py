"""The ``dealer-pi`` command line as a whole: help everywhere, light start-up, UTF-8 JSON."""

from __future__ import annotations

import argparse
import importlib
import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from dealer_pi.cli import available, build_parser

REPO = Path(__file__).resolve().parents[1]
HEAVY = ("cv2", "numpy", "gpiozero")
SKIPPED = (argparse._HelpAction, argparse._VersionAction, argparse._SubParsersAction)


def walk(parser: argparse.ArgumentParser, path: str = "dealer-pi") -> Iterator[tuple[str, argparse.ArgumentParser]]:
    yield path, parser
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                yield from walk(sub, f"{path} {name}")


def test_every_argument_of_every_command_has_a_help_text() -> None:
    missing = []
    for path, parser in walk(build_parser()):
        for action in parser._actions:
            if isinstance(action, argparse._SubParsersAction):
                listed = {a.dest for a in action._choices_actions if a.help}
                missing += [f"{path} {name} (no line in the list)" for name in action.choices if name not in listed]
            elif not isinstance(action, SKIPPED) and not (action.help or "").strip():
                missing.append(f"{path} {'/'.join(action.option_strings) or action.dest}")
    assert missing == []


def test_the_walk_sees_every_command_and_verb() -> None:
    """The help test above is only as good as its walk: it must reach the nested verbs."""
    paths = {p for p, _ in walk(build_parser())}
    assert {"dealer-pi replay", "dealer-pi shoe check-deck", "dealer-pi vision markers", "dealer-pi demo"} <= paths


def test_the_command_list_is_read_without_importing_and_matches_each_module() -> None:
    for name, text, module in available():
        mod = importlib.import_module(module)
        assert (mod.NAME, mod.HELP) == (name, text)


def probe(*argv: str) -> dict[str, object]:
    """Run ``dealer-pi ARGV`` in a fresh interpreter; which heavy modules did it load?"""
    code = (
        "import json, runpy, sys\n"
        f"sys.argv = ['dealer-pi', *{list(argv)!r}]\n"
        "try:\n    runpy.run_module('dealer_pi', run_name='__main__')\n"
        "except SystemExit as e:\n    status = e.code\n"
        f"print(json.dumps({{'status': status, 'heavy': [m for m in {HEAVY!r} if m in sys.modules]}}), file=sys.stderr)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=REPO,
                         env=dict(os.environ, PYTHONPATH=str(REPO)), timeout=120)
    return json.loads(out.stderr.strip().splitlines()[-1])  # type: ignore[no-any-return]


@pytest.mark.parametrize("argv", [("--help",), ("replay", "tests/data/phh/wsop-2023-43-1.phh"),
                                  ("replay", "--help"), ("scenario", "tests/scenarios/clean-hand-online.json")])
def test_help_and_replay_load_no_opencv_numpy_or_gpiozero(argv: tuple[str, ...]) -> None:
    seen = probe(*argv)
    assert seen["status"] == 0
    assert seen["heavy"] == []


def test_the_probe_would_see_a_heavy_import() -> None:
    """``vision render`` does need OpenCV: the probe above is not blind."""
    seen = probe("vision", "render", "/dev/null/x.png", "--cards", "board=Ah")
    assert "cv2" in seen["heavy"] and "numpy" in seen["heavy"]


def run_ascii(*argv: str) -> subprocess.CompletedProcess[bytes]:
    """The CLI with an ASCII-only standard output, as a misconfigured locale would give."""
    env = dict(os.environ, PYTHONPATH=str(REPO), PYTHONIOENCODING="ascii")
    return subprocess.run([sys.executable, "-m", "dealer_pi", *argv], capture_output=True, cwd=REPO, env=env, timeout=120)


def test_scenario_json_lines_are_utf8_with_the_section_sign() -> None:
    out = run_ascii("scenario", "tests/scenarios/deal-board-extra-turn.json")
    assert out.returncode == 0, out.stderr
    text = out.stdout.decode("utf-8")
    assert "§" in text and "\\u00a7" not in text
    lines = [json.loads(line) for line in text.splitlines() if line.startswith("{")]
    alerts = [a for a in lines if "check" not in a]  # the scenario's checks come after its alerts
    assert alerts and all(a["rule"] for a in alerts)


def test_replay_json_is_utf8(phh_dir: Path, tmp_path: Path) -> None:
    src = (phh_dir / "wsop-2023-43-1.phh").read_text(encoding="utf-8")
    path = tmp_path / "renamed.phh"
    path.write_text(src.replace("'Brian Rast'", "'Zoë §5'"), encoding="utf-8")
    out = run_ascii("replay", "--json", str(path))
    assert out.returncode == 0, out.stderr
    text = out.stdout.decode("utf-8")
    assert "Zoë §5" in text and "\\u" not in text
    assert json.loads(text)["players"][4] == "Zoë §5"


def test_an_unknown_command_is_refused_with_the_list() -> None:
    out = run_ascii("deal")
    assert out.returncode == 2
    assert b"invalid choice: 'deal'" in out.stderr and b"replay" in out.stderr


def test_rules_looks_up_DEAL_BOARD_EXTRA_and_finds_rules_by_a_word(capsys: pytest.CaptureFixture[str]) -> None:
    from dealer_pi.cli import main

    assert main(["rules", "deal-board-extra"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("DEAL-BOARD-EXTRA  (DEAL — dealing procedure and the deck)\n  Too many cards or no burn")
    assert "Sources: 002 §14.5 (\"Whose Pig Is This?\"" in out

    assert main(["rules", "--json", "rabbit"]) == 0
    assert [json.loads(line)["id"] for line in capsys.readouterr().out.splitlines()] == ["DEAL-NO-RABBIT"]

    assert main(["rules", "DEAL-NOPE"]) == 1
    assert "no rule ID or rule text matches 'DEAL-NOPE'" in capsys.readouterr().err


@pytest.mark.parametrize("given, expected", [(None, "1"), ("3", "3")])
def test_the_command_asks_numpy_for_one_blas_thread_before_importing_it(given: str | None, expected: str) -> None:
    """The reader's many tiny products ran three times slower with a BLAS thread per core beside the
    web server; a value the user sets in the environment wins."""
    code = ("import os, sys; import dealer_pi.cli; "
            "print(os.environ['OPENBLAS_NUM_THREADS'], os.environ['OMP_NUM_THREADS'], 'numpy' in sys.modules)")
    from dealer_pi.threads import BLAS_THREADS

    env = {k: v for k, v in os.environ.items() if k not in BLAS_THREADS}
    if given is not None:
        env["OPENBLAS_NUM_THREADS"] = env["OMP_NUM_THREADS"] = given
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=REPO, env=env, timeout=60)
    assert out.stdout.split() == [expected, expected, "False"], out.stderr
