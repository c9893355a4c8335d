import pytest

from dealer_pi.engine.cards import Card
from dealer_pi.engine.errors import InputError
from dealer_pi.engine.observations import (
    ActionKind,
    CardSeen,
    PlayerAction,
    Zone,
    observation_from_dict,
    observation_to_dict,
)

GOOD = [
    {"type": "shoe_draw", "card": "Ah"},
    {"type": "shoe_draw", "card": None},
    {"type": "card_seen", "zone": "seat:3", "face_up": False, "card": None},
    {"type": "card_seen", "zone": "board", "face_up": True, "card": "Td", "confidence": 0.93},
    {"type": "card_left", "zone": "muck", "card": None},
    {"type": "action", "seat": 6, "action": "raise", "amount": 30},
    {"type": "action", "seat": 2, "action": "fold"},
    {"type": "chips", "seat": 4, "amount": 100, "single_chip": True},
    {"type": "dealer", "declare": "misdeal"},
    {"type": "decision", "alert_id": "a7", "decision": "dismiss"},
]


@pytest.mark.parametrize("data", GOOD)
def test_json_round_trip(data):
    obs = observation_from_dict(data)
    again = observation_from_dict(observation_to_dict(obs))
    assert again == obs


def test_fields_are_typed():
    obs = observation_from_dict(GOOD[3])
    assert isinstance(obs, CardSeen)
    assert obs.zone == Zone("board") and obs.card is Card.parse("Td") and obs.face_up
    act = observation_from_dict(GOOD[5])
    assert act == PlayerAction(6, ActionKind.RAISE, 30, "dealer", 0)


@pytest.mark.parametrize(
    "data, field",
    [
        ({"type": "teleport"}, "obs.type"),
        ({"type": "shoe_draw", "card": "Zz"}, "obs.card"),
        ({"type": "card_seen", "zone": "seat:11", "face_up": True}, "obs.zone"),
        ({"type": "card_seen", "zone": "table", "face_up": True}, "obs.zone"),
        ({"type": "card_seen", "zone": "board", "face_up": "yes"}, "obs.face_up"),
        ({"type": "card_seen", "zone": "board", "face_up": True, "confidence": 2}, "obs.confidence"),
        ({"type": "action", "seat": 2, "action": "raise"}, "obs.amount"),
        ({"type": "action", "seat": "2", "action": "fold"}, "obs.seat"),
        ({"type": "action", "seat": 2, "action": "fold", "colour": "red"}, "obs.colour"),
        ({"type": "dealer", "declare": "coffee"}, "obs.declare"),
        ({"type": "decision", "decision": "confirm"}, "obs.alert_id"),
        ("not an object", "obs"),
    ],
)
def test_bad_observations_name_the_field(data, field):
    with pytest.raises(InputError) as err:
        observation_from_dict(data, where="obs")
    assert err.value.where == field
