"""A recorded session (the overhead video, the smart shoe's DPS/1 log, the dealer's entries) replayed
through the whole runtime gives the hands that were played when it was recorded."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from dealer_pi.cli import main
from dealer_pi.engine.table_session import TableSession
from dealer_pi.runtime.session_replay import events_of, hand_summaries
from dealer_pi.sim import Simulator
from dealer_pi.sim.camera_table import FPS, CameraTable, camera_settings
from dealer_pi.sim.overhead import FRAME
from dealer_pi.sim.recording import INPUTS, SETUP, SHOE_LOG, VIDEO, SessionRecorder
from dealer_pi.vision.examples import examples_dir, load_examples


def record(folder: Path) -> list[dict[str, Any]]:
    """Play a small simulated table in front of the camera, recording it; the hands it came to."""
    table = Simulator(seed=5, players=(2, 2), hands_per_table=2).table()
    recorder = SessionRecorder(folder, table.setup.to_dict(), FPS, FRAME)
    session = TableSession(table.setup)
    try:
        run = CameraTable(seed=2, recorder=recorder, settle_frames=1).play(table, session)
    finally:
        recorder.close()
    assert run.alerts == [] and run.refused == []
    return hand_summaries(events_of(session))


def test_a_recorded_session_replays_through_the_runtime_to_the_same_hands(tmp_path: Path, capsys: Any) -> None:
    rec = tmp_path / "rec"
    played = record(rec)
    assert len(played) == 2 and all(len(h["board"]) == 5 or h["pots"] for h in played)
    lines = (rec / SHOE_LOG).read_bytes().splitlines()
    assert lines[0].startswith(b"$0,HELLO,1,") and any(b",DRAW," in ln for ln in lines) and any(b",HB," in ln for ln in lines)
    settings = camera_settings(tmp_path)
    (tmp_path / "config.toml").write_text(f'[camera]\nlayout_file = "{Path(settings["layout_file"]).name}"\n')
    journal = tmp_path / "replay" / "journal.sqlite3"
    journal.parent.mkdir()
    rc = main(["replay-session", str(rec / VIDEO), str(rec / SHOE_LOG), "--setup", str(rec / SETUP),
               "--inputs", str(rec / INPUTS), "--config", str(tmp_path / "config.toml"),
               "--journal", str(journal), "--json"])
    out = json.loads(capsys.readouterr().out)
    assert rc == 0 and out["problems"] == [] and out["bad_frames"] == 0
    assert out["hands"] == played
    # The replay learned from the table as it went: the board cards the shoe named left their pictures.
    learned = load_examples(examples_dir(journal))
    assert learned and {e.how for e in learned} <= {"shoe", "showdown"}
    boards = {c for h in played for c in h["board"]}
    assert {str(e.card) for e in learned if e.how == "shoe"} <= boards


def test_replay_session_names_what_is_wrong_with_its_inputs(tmp_path: Path, capsys: Any) -> None:
    setup = tmp_path / "setup.json"
    setup.write_text(json.dumps({"blinds": [5, 10], "seats": {"1": 500, "2": 500}, "button": 1}))
    entries = tmp_path / "inputs.jsonl"
    entries.write_text('{"type": "action", "seat": 1, "action": "call", "ts_ms": 900}\n{"type": "shoe_draw", "card": "Ah", "ts_ms": 1000}\n')
    assert main(["replay-session", str(tmp_path / "none.avi"), str(tmp_path / "none.log"), "--setup", str(setup),
                 "--inputs", str(entries)]) == 2
    assert "inputs.jsonl:2.type" in capsys.readouterr().err
    entries.write_text('{"type": "action", "seat": 1, "action": "call"}\n')
    assert main(["replay-session", "x.avi", "x.log", "--setup", str(setup), "--inputs", str(entries)]) == 2
    assert "inputs.jsonl:1.ts_ms" in capsys.readouterr().err
    entries.write_text("")
    assert main(["replay-session", str(tmp_path / "none.avi"), str(tmp_path / "none.log"), "--setup", str(setup),
                 "--inputs", str(entries)]) == 2
    assert "none.log" in capsys.readouterr().err
