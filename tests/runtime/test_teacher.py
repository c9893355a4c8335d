"""Learning from the table: cards whose names became certain leave their camera pictures as labelled
examples; the dealer confirms or corrects the rest on the tablet, and never sees a hole card doing so."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import cv2
import numpy as np

import live_helpers as H
from dealer_pi.engine.cards import Card
from dealer_pi.engine.observations import CardSeen, ShoeDraw, Zone, observation_from_dict
from dealer_pi.runtime.teacher import TableTeacher
from dealer_pi.vision.examples import ExampleStore
from dealer_pi.web.app import create_app
from dealer_pi.web.auth import AuditLog

C = Card.parse


def picture(n: int) -> np.ndarray:
    img = np.full((90, 64, 3), 230, np.uint8)
    cv2.putText(img, str(n), (8, 60), cv2.FONT_HERSHEY_SIMPLEX, 1.5, (0, 0, 0), 3)
    return img


def seen(zone: str, card: str | None, ts: int) -> CardSeen:
    return CardSeen(Zone.parse(zone), True, C(card) if card else None, 0.95, "camera", ts)


def labels(store: ExampleStore) -> list[tuple[str, str]]:
    return [(str(e.card), e.how) for e in store.examples()]


def test_showdown_cards_are_labelled_from_the_shoes_names_and_others_wait_for_the_dealer_until_shown(tmp_path: Path) -> None:
    store = ExampleStore(tmp_path / "ex")
    crops: dict[CardSeen, np.ndarray] = {}
    teacher = TableTeacher(store, crops)
    hole = {"3": ["Ah", "Kd"], "5": ["2c", "7h"], "7": ["Qs", "Jd"]}

    def show(obs: CardSeen, events: list[dict[str, Any]] | None = None) -> None:
        crops[obs] = picture(obs.ts_ms)
        teacher.accepted(obs, events or [], lambda: hole)

    show(seen("seat:3", "Ah", 1))  # the read is one of the seat's cards the shoe named
    show(seen("seat:3", None, 2))  # not read, but the other one of the two is labelled already
    assert labels(store) == [("Ah", "showdown"), ("Kd", "showdown")]
    show(seen("seat:5", "9s", 3))  # read as a card the seat was not dealt: the dealer decides ...
    show(seen("seat:7", "8c", 4))  # ... and a card misread at a seat that is never shown
    assert teacher.reads() == []  # hole cards: nothing is listed before its seat's hand is shown
    teacher.accepted(ShoeDraw(None), [{"type": "hand_shown", "seat": 5, "cards": ["2c", "7h"]}], lambda: hole)
    teacher.accepted(ShoeDraw(None), [{"type": "hand_started"}], lambda: hole)
    listed = teacher.reads()
    assert [(r["zone"], r["read"]) for r in listed] == [("seat:5", "9s")]  # seat 7 was never shown: gone
    teacher.answer(listed[0]["id"], C("7h"))
    assert labels(store)[-1] == ("7h", "dealer") and teacher.reads() == []
    assert dict(teacher.learned) == {"showdown": 2, "dealer": 1}


def test_shoe_named_landings_are_learned_and_the_dealer_answers_the_camera_on_the_tablet(tmp_path: Path) -> None:
    runtime = H.runtime(tmp_path)
    crops: dict[CardSeen, np.ndarray] = {}
    store = ExampleStore(tmp_path / "camera-examples")
    runtime.teacher = TableTeacher(store, crops)
    app = create_app(H.config(tmp_path), runtime, audit=AuditLog(tmp_path / "audit.log"))
    client = app.test_client()
    dealer = {"Authorization": f"Bearer {H.DEALER}"}
    try:
        obs = [observation_from_dict(o) for o in H.checked_down_hand()[:25]]  # the deal, preflop, a burn
        flop = [("Td", "Td"), ("Jd", None), ("Qd", "Qh")]  # the shoe's card, the camera's read
        for o in obs:
            runtime.put(o)
        for n, (shoe, read) in enumerate(flop):
            runtime.put(ShoeDraw(C(shoe), "shoe", 100 + n))
            o = seen("board", read, 200 + n)
            crops[o] = picture(n)
            runtime.put(o)
        H.wait_for(lambda: len(store.examples()) == 2 and client.get("/api/camera/reads", headers=dealer).json["reads"])
        assert labels(store) == [("Td", "shoe"), ("Jd", "shoe")]
        # The shoe said Qd, the camera Qh: the tablet asks the dealer, with the camera's picture.
        reads = client.get("/api/camera/reads", headers=dealer).json["reads"]
        assert [(r["zone"], r["read"]) for r in reads] == [("board", "Qh")]
        pic = client.get(f"/api/camera/reads/{reads[0]['id']}/picture?token={H.DEALER}")
        assert pic.status_code == 200 and pic.mimetype == "image/jpeg"
        assert cv2.imdecode(np.frombuffer(pic.data, np.uint8), cv2.IMREAD_COLOR).shape[:2] == (90, 64)
        # Only the dealer answers; a bad card is refused naming the field.
        producer = {"Authorization": f"Bearer {H.PRODUCER}"}
        assert client.get("/api/camera/reads", headers=producer).status_code == 403
        bad = client.post(f"/api/camera/reads/{reads[0]['id']}", json={"card": "Qx"}, headers=dealer)
        assert bad.status_code == 400 and bad.json["error"]["where"] == "card"
        ok = client.post(f"/api/camera/reads/{reads[0]['id']}", json={"card": "Qd"}, headers=dealer)
        assert ok.status_code == 200 and ok.json["reads"] == []
        assert labels(store)[-1] == ("Qd", "dealer")
        again = client.post(f"/api/camera/reads/{reads[0]['id']}", json={"card": "Qd"}, headers=dealer)
        assert again.status_code == 400
    finally:
        runtime.stop()


def test_the_example_folder_keeps_its_bound(tmp_path: Path) -> None:
    store = ExampleStore(tmp_path, limit=3)
    for n in range(5):
        store.add(picture(n), C("As"), "shoe")
    kept = store.examples()
    assert len(kept) == 3 and len(list(tmp_path.iterdir())) == 3
    # The newest are kept: the pictures of 2, 3 and 4.
    assert [cv2.imread(str(e.path)).shape for e in kept] == [(90, 64, 3)] * 3


def test_vision_enrol_from_journal_adapts_the_reader_to_the_tables_examples_and_reports_before_and_after(
        tmp_path: Path, capsys: Any) -> None:
    from dealer_pi.cli import main
    from dealer_pi.sim.felt import Felt
    from dealer_pi.sim.overhead import OverheadCamera
    from dealer_pi.vision.detect import Detector
    from dealer_pi.vision.examples import examples_dir
    from dealer_pi.vision.faces import FaceStyle
    from dealer_pi.vision.pipeline import crop_card
    from dealer_pi.vision.recogniser import Enrolment

    # The venue's deck prints its index in another font; the table labelled 12 of its cards.
    (tmp_path / "config.toml").write_text('[journal]\npath = "state/journal.sqlite3"\n')
    store = ExampleStore(examples_dir(tmp_path / "state" / "journal.sqlite3"))
    camera = OverheadCamera(seed=4, style=FaceStyle(font=cv2.FONT_HERSHEY_COMPLEX, pip=50))
    detector = Detector()
    for n, card in enumerate(["Ah", "Kd", "7c", "Ts", "3h", "Qc"] * 2):
        felt = Felt(seed=n)
        felt.place("board", C(card), face_up=True)
        frame = camera.frame(felt, n)
        # The board card's outline (the markers at the corners are not felt either).
        found = min(detector.detect(frame), key=lambda f: abs(f.centre[0] - 960) + abs(f.centre[1] - 510))
        store.add(crop_card(frame, found.corners), C(card), "shoe")
    out = tmp_path / "deck.npz"
    assert main(["vision", "enrol", "--from-journal", "--config", str(tmp_path / "config.toml"), "--out", str(out)]) == 0
    text = capsys.readouterr().out
    assert "learned from 9 example(s) of 6 card(s) (9 shoe)" in text and "held back 3 example(s)" in text
    for line in ("before:", "after:"):
        counts = next(ln for ln in text.splitlines() if ln.strip().startswith(line))
        right, wrong, unread = (int(counts.split("/")[0].split()[-1]), int(counts.split(", ")[1].split()[0]),
                                int(counts.split(", ")[2].split()[0]))
        assert right + wrong + unread == 3
    assert len(Enrolment.load(out)) > 0
    # Nowhere to look: refused, naming what is missing.
    assert main(["vision", "enrol", "--from-journal", "--out", str(out)]) == 2
    assert "--config FILE or --examples DIR" in capsys.readouterr().err
