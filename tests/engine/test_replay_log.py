"""The event log: JSON form, replay, undo, and the snapshot the web layer shows."""

from __future__ import annotations

import json

import pytest
from handkit import entry, play, start

from dealer_pi.engine.cards import parse_cards
from dealer_pi.engine.errors import InputError, RuleViolation
from dealer_pi.engine.events import (
    ActionTaken,
    AntePosted,
    BetPlaced,
    BlindPosted,
    BoardDealt,
    CardBurned,
    ChipsPlaced,
    ExcessReturned,
    HandEnded,
    HandKilled,
    HandMucked,
    HandShown,
    HandStarted,
    HoleCardsDealt,
    MisdealDeclared,
    PenaltyCharged,
    PotAwarded,
    StreetCompleted,
    UncalledBetReturned,
    WinnersDeclared,
    event_from_dict,
    event_to_dict,
)
from dealer_pi.engine.hand import apply, apply_events, replay
from dealer_pi.engine.legal import legal_actions
from dealer_pi.engine.observations import ActionKind as A
from dealer_pi.engine.profiles import get_profile
from dealer_pi.engine.setup import blinds_setup

SCRIPT = (
    "hole 1 AhAd, hole 2 KhKd, hole 3 QhQd, 3 r 6, 1 c, 2 c, board 2c7d9s, 1 x, 2 r 10, 3 f, 1 c,"
    " board 3h, 1 x, 2 x, board 4s, 1 r 20, 2 c, show 1, show 2"
)

EVERY_EVENT = [
    HandStarted(blinds_setup({1: 100, 4: 80}, 4, 1, 2, ante=1), get_profile("house-pig")),
    HoleCardsDealt(1, (parse_cards("Ah")[0], None)),
    CardBurned(None),
    CardBurned(parse_cards("2c")[0]),
    BoardDealt(tuple(parse_cards("AsKsQs"))),
    ActionTaken(1, A.RAISE, 10),
    ActionTaken(1, A.FOLD),
    ChipsPlaced(4, 25, single_chip=True, declared=A.RAISE, declared_amount=None),
    HandShown(4, tuple(parse_cards("7h7d"))),
    HandShown(4),
    HandMucked(1),
    HandKilled(1, "TABLE-AWAY"),
    WinnersDeclared(1, (1, 4)),
    MisdealDeclared("DEAL-HOLE-EXPOSED"),
    AntePosted(1, 1, False),
    BlindPosted(4, 2, True),
    BetPlaced(1, A.RAISE, 10, 8, False),
    ExcessReturned(1, 3, "BET-UNDER-RAISE"),
    UncalledBetReturned(4, 20),
    StreetCompleted("flop", ((30, (1, 4)), (10, (4,)))),
    PotAwarded(0, 30, ((1, 15), (4, 15)), 1, "Two pair, Aces and Kings"),
    HandEnded(((1, 90), (4, 110)), False),
    PenaltyCharged(1, 12, "DEAL-PLAYER-EXPOSED"),
]


@pytest.mark.parametrize("event", EVERY_EVENT, ids=lambda e: type(e).__name__)
def test_every_event_has_a_json_form_that_reads_back(event: object) -> None:
    d = event_to_dict(event)  # type: ignore[arg-type]
    assert event_from_dict(json.loads(json.dumps(d))) == event


@pytest.mark.parametrize(
    ("data", "where"),
    [
        ({"type": "hand_exploded"}, "event.type"),
        ({"type": "action_taken", "seat": 1, "action": "jump"}, "event.action"),
        ({"type": "action_taken", "seat": "one", "action": "fold"}, "event.seat"),
        ({"type": "board_dealt", "cards": ["Zz"]}, "event.cards[0]"),
        ({"type": "hole_cards_dealt", "seat": 1, "cards": ["Ah"], "colour": "red"}, "event.colour"),
        ({"type": "chips_placed", "seat": 1, "amount": 5, "single_chip": "yes"}, "event.single_chip"),
    ],
)
def test_bad_event_json_names_the_field(data: dict[str, object], where: str) -> None:
    with pytest.raises(InputError) as err:
        event_from_dict(data)
    assert err.value.where.startswith(where)


def test_replay_of_the_log_gives_the_same_state() -> None:
    h = play(start({1: 100, 2: 100, 3: 100}, button=3), SCRIPT)
    assert h.state.is_complete
    again = replay(h.entries)
    assert again.to_dict(reveal_hole_cards=True) == h.state.to_dict(reveal_hole_cards=True)
    from_json = replay([event_from_dict(json.loads(json.dumps(event_to_dict(e)))) for e in h.entries])  # type: ignore[misc]
    assert from_json.final_stacks() == h.state.final_stacks() == {1: 142, 2: 64, 3: 94}


def test_undo_of_the_last_entry_is_exact() -> None:
    h = start({1: 100, 2: 100, 3: 100}, button=3)
    snapshots = [h.state.to_dict(reveal_hole_cards=True)]
    steps = [s.strip() for s in SCRIPT.split(",")]
    for s in steps:
        h.apply(entry(s))
        snapshots.append(h.state.to_dict(reveal_hole_cards=True))
    for k in range(len(steps), 0, -1):
        h.undo()
        assert h.state.to_dict(reveal_hole_cards=True) == snapshots[k - 1]
    with pytest.raises(InputError):
        h.undo()


def test_apply_never_changes_the_state_it_is_given() -> None:
    h = start({1: 100, 2: 100, 3: 100}, button=3)
    before = h.state.to_dict(reveal_hole_cards=True)
    new = apply(h.state, ActionTaken(3, A.RAISE, 10))
    assert h.state.to_dict(reveal_hole_cards=True) == before and new.current_bet == 10
    with pytest.raises(RuleViolation):
        apply(h.state, ActionTaken(2, A.CHECK))
    assert h.state.to_dict(reveal_hole_cards=True) == before


def test_apply_events_reports_what_the_entry_caused() -> None:
    h = start({1: 100, 2: 100, 3: 100}, button=3)
    _, out = apply_events(h.state, ActionTaken(3, A.RAISE, 10))
    assert out == (BetPlaced(3, A.RAISE, 10, 10, False),)


def test_a_finished_hand_accepts_nothing_more() -> None:
    h = play(start({1: 100, 2: 100, 3: 100}, button=3), "3 f, 1 f")
    assert h.state.is_complete
    with pytest.raises(RuleViolation) as err:
        play(h, "board 2c7d9s")
    assert err.value.rule == "DEAL-NO-RABBIT"


def test_replay_refuses_a_log_without_a_start() -> None:
    with pytest.raises(InputError):
        replay([ActionTaken(1, A.FOLD)])


def test_DEAL_DECK_a_card_seen_twice_is_refused() -> None:
    h = play(start({1: 100, 2: 100}, button=1), "hole 1 AhAd")
    with pytest.raises(RuleViolation) as err:
        play(h, "hole 2 AhKd")
    assert err.value.rule == "DEAL-DECK"


def test_snapshot_hides_hole_cards_unless_asked() -> None:
    h = play(start({1: 100, 2: 100, 3: 100}, button=3), "hole 1 AhAd, hole 2 KhKd, 3 r 6")
    snap = h.state.to_dict()
    json.dumps(snap)
    seat1 = next(s for s in snap["seats"] if s["seat"] == 1)
    assert seat1["hole"] == {"secret": True, "count": 2, "cards": [None, None]}
    assert "Ah" not in json.dumps(snap)
    revealed = h.state.to_dict(reveal_hole_cards=True)
    assert next(s for s in revealed["seats"] if s["seat"] == 1)["hole"]["cards"] == ["Ah", "Ad"]
    assert snap["seat_to_act"] == 1 and snap["street"] == "preflop" and snap["current_bet"] == 6
    la = legal_actions(h.state)
    assert la is not None and la.to_dict()["to_call"] == 5


def test_snapshot_shows_side_pots_and_shown_hands() -> None:
    h = play(start({1: 30, 2: 100, 3: 100}, button=3), "hole 1 AhAd, 3 c, 1 a, 2 c, 3 c, board 2c7d9s, 2 r 20, 3 c")
    snap = h.state.to_dict()
    assert [p["amount"] for p in snap["pots"]] == [90, 40]
    assert snap["pots"][1]["eligible"] == [2, 3]
    play(h, "board 3h, 2 x, 3 x, board 4s, 2 x, 3 x, show 1")  # shown hands are public
    assert next(s for s in h.state.to_dict()["seats"] if s["seat"] == 1)["shown"] == ["Ah", "Ad"]


def test_snapshot_carries_legal_actions_and_who_shows_next() -> None:
    h = start({1: 100, 2: 100}, button=1)
    snap = h.state.to_dict()
    assert snap["legal"]["seat"] == 1 and snap["legal"]["to_call"] == 1 and snap["next_to_show"] is None
    play(h, "hole 1 AhAd, hole 2 KhKd, 1 a, 2 c, board 2c7d9s, board 3h, board 4s")
    snap = h.state.to_dict()
    assert snap["legal"] is None and snap["next_to_show"] == 1 and snap["phase"] == "showdown"
