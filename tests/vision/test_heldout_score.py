"""How ``models/eval_heldout.py`` scores one held-out still: rank by rank as well as in all."""

from __future__ import annotations

import pytest

from dealer_pi.engine.cards import Card
from dealer_pi.vision.detect import CardFound
from vision_helpers import models_script

CARD_H = 150.0


@pytest.fixture()
def heldout():
    return models_script("eval_heldout")


def _found(card: str | None, x: float, y: float, face_up: bool = True) -> CardFound:
    return CardFound(Card.parse(card) if card else None, face_up, (x, y), ((x, y),) * 4, 0.99)


def test_a_still_is_scored_rank_by_rank_only_for_names_where_their_card_lies(heldout):
    truth = [(Card.parse("Qs"), (300.0, 300.0), True), (Card.parse("Qh"), (600.0, 300.0), True),
             (Card.parse("7c"), (900.0, 300.0), True), (None, (300.0, 600.0), True),
             (Card.parse("Qd"), (20.0, 20.0), False)]  # on the floor: no card of the table's
    found = [_found("Qs", 305, 300), _found(None, 600, 300),
             _found("Qh", 900, 300),  # a queen named where the seven lies is no queen named
             _found(None, 300, 600, face_up=False)]
    s = heldout.score(found, truth, CARD_H, (1920, 1080))
    assert (s["cards 12"], s["named 12"]) == (2, 1)
    assert (s["cards 7"], s["named 7"]) == (1, 0)
    assert "cards 14" not in s
    assert (s["face_up"], s["named_right"], s["named_wrong"], s["down_exact"]) == (3, 1, 1, 1)
