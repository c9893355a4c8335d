"""``dealer-pi vision ...`` as a user runs it, on rendered pictures and on bad files."""

from __future__ import annotations

import json
import subprocess
import sys

import cv2
import numpy as np

from dealer_pi.cli import main
from dealer_pi.engine.cards import Card
from dealer_pi.vision.render import render_table_frame

from .vision_helpers import ENROLLED_CARDS, ENROLLED_STYLE, enrolment_pictures


def test_detect_json_and_drawing(tmp_path, capsys):
    img = tmp_path / "table.png"
    cards = {"board": [Card.parse(c) for c in ("Ah", "Kd", "Tc")], "burn": [None]}
    cv2.imwrite(str(img), render_table_frame(cards, seed=4))
    out = tmp_path / "drawn.png"
    assert main(["vision", "detect", str(img), "--json", "--draw", str(out)]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["zones"] is False  # no markers in a plain picture
    named = sorted(c["card"] for c in doc["cards"] if c["card"])
    assert named == ["Ah", "Kd", "Tc"]
    assert any(not c["face_up"] for c in doc["cards"])
    for c in doc["cards"]:
        assert len(c["corners"]) == 4 and 0 <= c["confidence"] <= 1 and len(c["centre"]) == 2
    drawn = cv2.imread(str(out))
    assert drawn is not None and drawn.shape == (720, 1280, 3)


def test_detect_plain_text(tmp_path, capsys):
    img = tmp_path / "t.png"
    cv2.imwrite(str(img), render_table_frame({"board": [Card.parse("7s")]}, seed=2))
    assert main(["vision", "detect", str(img)]) == 0
    text = capsys.readouterr().out
    assert "1 card(s)" in text and "7s" in text and "no zones" in text


def test_detect_reports_the_table_only_unless_asked_for_the_whole_picture(tmp_path, capsys):
    from vision_helpers import ON_FLOOR, table_on_a_floor

    img = tmp_path / "room.png"
    cv2.imwrite(str(img), table_on_a_floor())
    named = {}
    for flags in ([], ["--whole-picture"]):
        assert main(["vision", "detect", str(img), "--json", *flags]) == 0
        named[bool(flags)] = {c["card"] for c in json.loads(capsys.readouterr().out)["cards"] if c["card"]}
    assert set(ON_FLOOR) <= named[True] and not set(ON_FLOOR) & named[False]
    assert named[False] and named[False] < named[True]


def test_bad_pictures_exit_non_zero_with_reason(tmp_path, capsys):
    assert main(["vision", "detect", str(tmp_path / "missing.png")]) == 2
    assert "no such file" in capsys.readouterr().err
    bad = tmp_path / "bad.jpg"
    bad.write_text("hello")
    assert main(["vision", "detect", str(bad)]) == 2
    assert "not a picture" in capsys.readouterr().err
    small = tmp_path / "small.png"
    cv2.imwrite(str(small), np.zeros((20, 30, 3), np.uint8))
    assert main(["vision", "detect", str(small)]) == 2
    assert "30x20" in capsys.readouterr().err


def test_render_and_markers_and_calibrate_verbs(tmp_path, capsys):
    out = tmp_path / "r.png"
    assert main(["vision", "render", str(out), "--cards", "board=Ah,Kd seat:2=??,??"]) == 0
    assert cv2.imread(str(out)).shape == (720, 1280, 3)
    assert main(["vision", "render", str(out), "--cards", "board=Zz"]) == 2
    assert "rank must be one of" in capsys.readouterr().err
    assert main(["vision", "markers", str(tmp_path / "m")]) == 0
    assert len(list((tmp_path / "m").glob("marker_*.png"))) == 4
    assert main(["vision", "calibrate", str(out)]) == 2  # a frame without markers
    assert "missing ids" in capsys.readouterr().err


def test_console_entry_runs():
    r = subprocess.run([sys.executable, "-m", "dealer_pi", "vision", "detect", "/nonexistent.png"], capture_output=True, text=True, timeout=60)
    assert r.returncode == 2 and "no such file" in r.stderr


def test_enrol_a_deck_then_detect_with_it(tmp_path, capsys):
    from dealer_pi.vision.render import render_table_scene

    folder = tmp_path / "deck"
    folder.mkdir()
    enrolment_pictures(folder)
    (folder / "notes.png").write_bytes(b"not a card name")
    out = tmp_path / "deck.npz"
    assert main(["vision", "enrol", str(folder), "--out", str(out)]) == 0
    captured = capsys.readouterr()
    assert "enrolled 8 card(s)" in captured.out and "notes.png" in captured.err
    table = tmp_path / "t.png"
    scene = render_table_scene({"board": ENROLLED_CARDS[:5]}, seed=9, style=ENROLLED_STYLE)
    cv2.imwrite(str(table), scene.frame)
    assert main(["vision", "detect", str(table), "--json", "--enrolment", str(out)]) == 0
    doc = json.loads(capsys.readouterr().out)
    named = {c["card"] for c in doc["cards"] if c["card"]}
    assert named == {str(c) for c in ENROLLED_CARDS[:5]}
