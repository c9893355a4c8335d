import pytest

from dealer_pi.engine.cards import Card
from dealer_pi.engine.errors import InputError
from dealer_pi.engine.events import event_from_dict
from dealer_pi.engine.observations import (
    ActionKind,
    CardSeen,
    PlayerAction,
    Zone,
    observation_from_dict,
    observation_to_dict,
)
from dealer_pi.engine.phh import parse_phh
from dealer_pi.engine.profiles import profile_from_mapping
from dealer_pi.engine.table_session import TableSetup
from dealer_pi.runtime.clock import check_level

GOOD = [
    {"type": "shoe_draw", "card": "Ah"},
    {"type": "shoe_draw", "card": None},
    {"type": "card_seen", "zone": "seat:3", "face_up": False, "card": None},
    {"type": "card_seen", "zone": "board", "face_up": True, "card": "Td", "confidence": 0.93},
    {"type": "card_seen", "zone": "seat:2", "face_up": True, "card": None, "confidence": 0.87, "guess": "Js"},
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
    act = observation_from_dict(GOOD[6])
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
        ({"type": "card_seen", "zone": "seat:2", "face_up": True, "guess": "Jz"}, "obs.guess"),
        ({"type": "card_seen", "zone": "seat:2", "face_up": True, "card": "Js", "guess": "Jc"}, "obs.guess"),
        ({"type": "card_seen", "zone": "seat:2", "face_up": False, "guess": "Js"}, "obs.guess"),
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


def _phh_with_stack(value: object) -> str:
    return (f'variant = "NT"\nantes = [0, 0]\nblinds_or_straddles = [1, 2]\nmin_bet = 2\n'
            f'starting_stacks = [{value}, 100]\nactions = []\n')


READERS = {
    "observation": lambda v: observation_from_dict({"type": "action", "seat": v, "action": "fold"}, "obs"),
    "event": lambda v: event_from_dict({"type": "hand_killed", "seat": v, "rule": "TABLE-AWAY"}, "ev"),
    "phh": lambda v: parse_phh(_phh_with_stack("true" if v is True else v)),
    "setup": lambda v: TableSetup.from_dict({"blinds": [1, 2], "ante": v, "seats": {"1": 100, "2": 100}, "button": 1}),
    "profile": lambda v: profile_from_mapping("standard", {"clock_seconds": v}),
    "clock": lambda v: check_level({"small_blind": 1, "big_blind": 2, "minutes": 20, "ante": v}, "level"),
}


@pytest.mark.parametrize("reader", sorted(READERS))
def test_every_reader_refuses_true_as_a_count_and_names_the_field(reader):
    """One validator (engine.validate.whole) serves every reader: ``true`` is not 1."""
    with pytest.raises(InputError) as err:
        READERS[reader](True)
    assert "whole number" in err.value.message and "True" in err.value.message
    assert err.value.where
    READERS[reader](1)  # and a real count is fine
