"""Every scenario file gives exactly its expected alerts; malformed files name the bad field."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from dealer_pi.commands.scenario import differences, load_scenario, run_scenario
from dealer_pi.engine.errors import InputError

HERE = Path(__file__).parent
FILES = sorted(HERE.glob("*.json"))
REPO = HERE.parents[1]

# Rules no sensor can break by itself: the deal order and burns are checked through the
# rules that name their remedies (DEAL-ORDER is used for out-of-sequence deals, DEAL-BURN
# through DEAL-FLOP-EXTRA/DEAL-BOARD-EXTRA), the remedy through the redeal scenarios.
NOT_AN_ALERT = {"DEAL-BURN", "DEAL-MISDEAL-REMEDY"}


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_DEAL_scenario_gives_its_expected_alerts(path: Path) -> None:
    sc = load_scenario(path)
    assert sc.expect is not None, "every shipped scenario states its expected alerts"
    lines = run_scenario(sc)
    assert differences(sc, lines) == []
    for line in lines:
        if "rule" in line:
            assert line["remedy"], "every alert tells the dealer what to do"


def test_DEAL_every_rule_and_profile_has_a_scenario(rules_text: str) -> None:
    rules = set(re.findall(r"^\| (DEAL-[A-Z-]+) \|", rules_text, re.MULTILINE))
    assert len(rules) == 17
    covered: set[str] = set()
    profiles: set[str] = set()
    for path in FILES:
        data = json.loads(path.read_text())
        profiles.add(data.get("profile", "standard"))
        covered.update(e.get("rule") or e.get("rejected") for e in data["expect"])
    assert rules - NOT_AN_ALERT - covered == set()
    assert "DEAL-MISDEAL-REMEDY" in covered  # refused "new hand" after a misdeal
    assert {"standard", "roberts", "house-pig", "online"} <= profiles


def test_DEAL_HOLE_EXPOSED_remedy_differs_by_profile() -> None:
    roberts = run_scenario(load_scenario(HERE / "deal-hole-exposed-roberts-replaced.json"))
    standard = run_scenario(load_scenario(HERE / "deal-hole-exposed-standard.json"))
    assert "burn" in roberts[0]["remedy"] and roberts[0]["verdict"] == "irregularity"
    assert "Misdeal" in standard[0]["remedy"] and standard[0]["verdict"] == "misdeal"


def test_DEAL_PLAYER_EXPOSED_house_pig_mentions_the_penalty() -> None:
    pig = run_scenario(load_scenario(HERE / "deal-player-exposed-house-pig.json"))
    std = run_scenario(load_scenario(HERE / "deal-player-exposed-standard.json"))
    assert "half the pot" in pig[0]["remedy"] and "half the pot" not in std[0]["remedy"]


def _write(tmp_path: Path, doc: object) -> Path:
    p = tmp_path / "s.json"
    p.write_text(json.dumps(doc) if not isinstance(doc, str) else doc)
    return p


GOOD = {"blinds": [5, 10], "seats": {"1": 100, "2": 100}, "button": 1, "observations": []}


@pytest.mark.parametrize("change, field", [
    ({"observations": [{"type": "shoe_draw", "card": "Zz"}]}, "observations[0].card"),
    ({"observations": [{"type": "card_seen", "zone": "seat:11", "face_up": False}]}, "observations[0].zone"),
    ({"observations": "none"}, "observations"),
    ({"blinds": [5]}, "blinds"),
    ({"seats": {"one": 5}}, "seats.one"),
    ({"profile": "casino"}, "profile"),
    ({"overrides": {"hole_count": "maybe"}}, "overrides.hole_count"),
    ({"button": 0}, "button"),
    ({"colour": "red"}, "colour"),
    ({"expect": [{"rule": "DEAL-DECK", "verdict": "bad", "at": 0}], "observations": [{"type": "shoe_draw"}]},
     "expect[0].verdict"),
    ({"expect": [{"rule": "DEAL-DECK", "verdict": "misdeal", "at": 5}]}, "expect[0].at"),
])
def test_malformed_scenario_names_the_field(tmp_path: Path, change: dict[str, object], field: str) -> None:
    path = _write(tmp_path, {**GOOD, **change})
    with pytest.raises(InputError) as exc:
        load_scenario(path)
    assert exc.value.where == f"{path}: {field}"


def test_scenario_command_prints_json_lines_and_fails_on_bad_files(tmp_path: Path) -> None:
    cmd = [sys.executable, "-m", "dealer_pi", "scenario"]
    env = {"PYTHONPATH": str(REPO)}
    ok = subprocess.run([*cmd, str(HERE / "deal-first-exposed-standard.json")], capture_output=True,
                        text=True, cwd=REPO, env=env, check=False)
    assert ok.returncode == 0, ok.stderr
    lines = [json.loads(x) for x in ok.stdout.splitlines()]
    assert lines[0]["rule"] == "DEAL-FIRST-EXPOSED" and lines[0]["verdict"] == "misdeal" and lines[0]["at"] == 1
    assert set(lines[0]) == {"rule", "verdict", "remedy", "at"}
    bad = subprocess.run([*cmd, str(_write(tmp_path, "{not json"))], capture_output=True, text=True, cwd=REPO,
                         env=env, check=False)
    assert bad.returncode == 2 and "not valid JSON" in bad.stderr
    wrong = dict(json.loads((HERE / "deal-empty-seat.json").read_text()))
    wrong["expect"] = []
    diff = subprocess.run([*cmd, "--check", str(_write(tmp_path, wrong))], capture_output=True, text=True,
                          cwd=REPO, env=env, check=False)
    assert diff.returncode == 1 and "unexpected" in diff.stderr
