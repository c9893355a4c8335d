"""Deck registration files: every card once, every tag once, and a damaged file named precisely."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from dealer_pi.engine.cards import FULL_DECK, Card
from dealer_pi.hardware.deck import FORMAT, ORDERS, DeckRegistration, Registrar, RegistrationError


def tags() -> dict[str, str]:
    return {str(c): f"U:04{c.index:06X}" for c in FULL_DECK}


def test_orders_are_whole_decks() -> None:
    for name, order in ORDERS.items():
        assert sorted(Card.parse(c).index for c in order) == list(range(52)), name
    assert ORDERS["new-deck"][:2] == ("As", "2s") and ORDERS["new-deck"][-1] == "Ah"


def test_save_and_load_round_trip(tmp_path: Path) -> None:
    reg = DeckRegistration.from_pairs(tags(), deck_id="blue-1")
    reg.save(tmp_path / "deck.json")
    back = DeckRegistration.load(tmp_path / "deck.json")
    assert back == reg and back.deck_id == "blue-1"
    assert back.card_for("u:04000032") is Card.parse("Ah")
    assert not (tmp_path / "deck.json.tmp").exists()


@pytest.mark.parametrize("content, words", [
    ("{not json", "not JSON"),
    (json.dumps({"format": "something else", "cards": {}}), "not a deck registration"),
    (json.dumps({"format": FORMAT, "cards": []}), "'cards' must map"),
    (json.dumps({"format": FORMAT, "cards": {**tags(), "Zz": "U:0101"}}), "card 'Zz'"),
    (json.dumps({"format": FORMAT, "cards": {**tags(), "Ah": "barcode"}}), "Ah: 'barcode' is not a tag id"),
    (json.dumps({"format": FORMAT, "cards": {**tags(), "Ah": "U:04000000"}}), "Ah: tag U:04000000 is also on 2c"),
])
def test_a_damaged_file_is_refused_with_the_card_named(tmp_path: Path, content: str, words: str) -> None:
    p = tmp_path / "deck.json"
    p.write_text(content)
    with pytest.raises(RegistrationError) as err:
        DeckRegistration.load(p)
    assert words in str(err.value) and str(p) in str(err.value)


def test_registrar_names_missing_and_extra_reads() -> None:
    r = Registrar()
    for i in range(50):
        r.add(f"U:0A{i:04X}")
    assert r.expected is Card.parse("2h")
    with pytest.raises(RegistrationError, match=r"2 card\(s\) did not pass: 2h, Ah"):
        r.finish()
    r.add("U:0B0000")
    r.add("U:0B0001")
    r.add("U:0B0002")
    with pytest.raises(RegistrationError, match="1 read"):
        r.finish()
