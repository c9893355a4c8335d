"""Export of finished hands: PHH files that ``dealer-pi replay`` accepts, and the full JSON log."""

from __future__ import annotations

import json
from pathlib import Path

from dealer_pi.cli import main
from dealer_pi.engine.observations import (
    ActionKind, DealerDeclaration, Declaration, Observation, PlayerAction,
)
from dealer_pi.runtime.engine_thread import Runtime
from dealer_pi.sim import Fault, Simulator


def played_journal(tmp: Path, observations: list[Observation], setup: dict) -> Path:
    rt = Runtime(tmp / "journal.sqlite3", setup, stream_delay_s=1).start()
    for obs in observations:
        rt.submit("observation", obs)
    rt.stop()
    return tmp / "journal.sqlite3"


def test_export_phh_files_replay_to_the_table_stacks_and_json_keeps_every_hand(tmp_path: Path, capsys) -> None:
    table = Simulator(5, hands_per_table=10, faults=list(Fault), rate=0.3).table()
    journal = played_journal(tmp_path, list(table.observations()), table.setup.to_dict())
    out = tmp_path / "phh"
    assert main(["export", "--journal", str(journal), "--phh", str(out), "--json", str(tmp_path / "hands.json")]) == 0
    files = sorted(out.glob("*.phh"))
    hands = json.loads((tmp_path / "hands.json").read_text())["hands"]
    voided = [h for h in hands if h["misdeal"]]
    assert voided, "the faults made at least one misdeal"
    assert len(files) == len(hands) - len(voided) >= 8
    for h in hands:
        types = [e["event"]["type"] for e in h["events"]]
        assert types[0] == "hand_started" and types[-1] == "hand_ended"
        ids = [e["id"] for e in h["events"]]
        assert ids == sorted(ids)
    capsys.readouterr()
    assert main(["replay", "--json", *map(str, files)]) == 0
    results = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert len(results) == len(files) and all(r["ok"] and r["match"] for r in results)


def test_export_leaves_out_an_entry_the_dealer_took_back(tmp_path: Path) -> None:
    table = Simulator(8, hands_per_table=1, players=(3, 3)).table()
    observations = list(table.observations())
    i = next(k for k, o in enumerate(observations) if isinstance(o, PlayerAction) and o.action is not ActionKind.FOLD)
    seat = observations[i].seat  # type: ignore[union-attr]
    mistake = [PlayerAction(seat, ActionKind.FOLD), DealerDeclaration(Declaration.UNDO)]
    journal = played_journal(tmp_path, observations[:i] + mistake + observations[i:], table.setup.to_dict())
    (tmp_path / "clean").mkdir()
    clean = played_journal(tmp_path / "clean", observations, table.setup.to_dict())
    assert main(["export", "--journal", str(journal), "--phh", str(tmp_path / "a")]) == 0
    assert main(["export", "--journal", str(clean), "--phh", str(tmp_path / "b")]) == 0
    (a,), (b,) = sorted((tmp_path / "a").glob("*.phh")), sorted((tmp_path / "b").glob("*.phh"))
    assert a.read_text() == b.read_text()


def test_export_says_what_is_missing(tmp_path: Path, capsys) -> None:
    assert main(["export", "--journal", str(tmp_path / "none.sqlite3"), "--phh", str(tmp_path)]) == 2
    assert "no journal" in capsys.readouterr().err
