import pytest

from dealer_pi.engine.cards import FULL_DECK, Card, parse_cards
from dealer_pi.engine.errors import InputError


def test_deck_has_52_distinct_cards_DEAL_DECK():
    assert len(FULL_DECK) == 52
    assert len({str(c) for c in FULL_DECK}) == 52
    assert [c.index for c in FULL_DECK] == list(range(52))


@pytest.mark.parametrize("text", [str(c) for c in FULL_DECK])
def test_parse_round_trips(text):
    card = Card.parse(text)
    assert str(card) == text
    assert Card.parse(text) is card
    assert Card.from_index(card.index) is card


def test_ten_spelled_10_is_accepted():
    assert Card.parse("10h") is Card.parse("Th")


@pytest.mark.parametrize(
    "text, message",
    [("1h", "rank"), ("Ax", "suit"), ("A", "rank and a suit"), ("Ahh", "rank and a suit"), ("", "rank and a suit")],
)
def test_malformed_cards_are_refused_with_the_reason(text, message):
    with pytest.raises(InputError) as err:
        Card.parse(text)
    assert message in str(err.value)
    assert repr(text) in str(err.value)


def test_parse_cards_names_the_position_of_a_bad_card():
    assert [str(c) for c in parse_cards("Jc3d5c")] == ["Jc", "3d", "5c"]
    with pytest.raises(InputError) as err:
        parse_cards("JcXd5c", where="board")
    assert "board[1]" in str(err.value)
