"""The floor's changes between hands go through the engine's table: a level keeps the button and
blind history, a new player, a rebuy, a player away or gone are entries (undo and replay included);
verbal declarations, "I play the board" and a called hand at the showdown."""

from __future__ import annotations

from typing import Any

import pytest

from dealer_pi.engine.cards import Card
from dealer_pi.engine.errors import InputError, RuleViolation
from dealer_pi.engine.monitor.alerts import AlertRaised, Verdict
from dealer_pi.engine.observations import (
    ActionKind,
    BoardPlayed,
    CardSeen,
    ChipsAdded,
    DealerDeclaration,
    Declaration,
    HandAnnounced,
    LevelChanged,
    Observation,
    PlayerAction,
    PlayerAway,
    PlayerRemoved,
    PlayerSeated,
    ShoeDraw,
    VerbalDeclaration,
    WinnersNamed,
    Zone,
    observation_from_dict,
    observation_to_dict,
)
from dealer_pi.engine.table_session import TableSession, TableSetup

NEW_HAND = DealerDeclaration(Declaration.NEW_HAND)
CARDS_OUT = DealerDeclaration(Declaration.CARDS_OUT)


def session(seats: dict[str, int], button: int = 1, **kw: Any) -> TableSession:
    return TableSession(TableSetup.from_dict({"blinds": [5, 10], "seats": seats, "button": button, **kw}))


def feed(s: TableSession, obs: list[Observation]) -> list[Any]:
    out: list[Any] = []
    for o in obs:
        out += s.feed(o)
    return out


def fold_round(s: TableSession) -> None:
    """Cards out, then everyone folds to the big blind."""
    s.feed(CARDS_OUT)
    while (la := s.legal_actions()) is not None:
        s.feed(PlayerAction(la.seat, ActionKind.FOLD))


def positions(s: TableSession) -> tuple[int, int | None, int | None]:
    t = s.snapshot(secrets=False)
    return t["table"]["button"], t["hand"]["small_blind_seat"], t["hand"]["big_blind_seat"]


def test_TABLE_LEVELS_a_level_between_hands_keeps_the_button_and_blind_history() -> None:
    seats = {"1": 1000, "2": 1000, "4": 1000, "6": 1000}
    plain, leveled = session(seats), session(seats)
    for s in (plain, leveled):
        fold_round(s)
    leveled.feed(LevelChanged(25, 50, 5))
    for s in (plain, leveled):
        s.feed(NEW_HAND)
    assert positions(plain) == positions(leveled) == (2, 4, 6)
    snap = leveled.snapshot(secrets=False)
    assert snap["table"]["blinds"] == [25, 50] and snap["table"]["ante"] == 5
    assert snap["table"]["seats"]["6"]["bet"] == 50 and snap["hand"]["pot_total"] == 25 + 50 + 4 * 5
    # The level came as an observation: replay and undo know it.
    assert TableSession.replay(leveled.setup, leveled.observations).snapshot() == leveled.snapshot()


def test_TABLE_LEVELS_a_level_during_a_hand_counts_from_the_next() -> None:
    s = session({"1": 1000, "2": 1000, "3": 1000})
    s.feed(LevelChanged(50, 100))
    assert s.snapshot()["table"]["blinds"] == [5, 10]  # this hand keeps its blinds
    fold_round(s)
    assert s.snapshot()["table"]["blinds"] == [50, 100]  # between hands: the next hand's
    s.feed(NEW_HAND)
    assert s.snapshot()["hand"]["pot_total"] == 150


def test_TABLE_NEW_PLAYER_seated_between_hands_waits_for_the_big_blind_or_posts_now() -> None:
    s = session({"1": 1000, "3": 1000, "5": 1000})
    fold_round(s)
    # Next hand: button 3, small blind 5, big blind 1; seats 2 and 4 come after the big blind.
    s.feed(PlayerSeated(2, 1500, "Dee"))
    s.feed(PlayerSeated(4, 800, "Eve", post_now=True))
    seats = s.snapshot()["table"]["seats"]
    assert seats["2"]["name"] == "Dee" and seats["2"]["stack"] == 1500 and not seats["2"]["in_hand"]
    s.feed(NEW_HAND)
    snap = s.snapshot()
    assert snap["hand"]["big_blind_seat"] == 1
    assert snap["table"]["seats"]["4"]["in_hand"] and snap["table"]["seats"]["4"]["bet"] == 10  # a big blind now
    assert not snap["table"]["seats"]["2"]["in_hand"]  # waits for the big blind
    with pytest.raises(RuleViolation) as exc:
        s.feed(PlayerSeated(8, 500))
    assert exc.value.rule == "TABLE-NEW-PLAYER"  # not while a hand runs


def test_TABLE_MOVE_a_moved_player_may_not_sit_between_the_small_blind_and_the_button() -> None:
    s = session({"1": 1000, "5": 1000, "7": 1000})
    fold_round(s)  # button 1, SB 5, BB 7; next hand: button 5, SB 7, BB 1
    with pytest.raises(RuleViolation) as exc:
        s.feed(PlayerSeated(6, 1000, moved=True))
    assert exc.value.rule == "TABLE-MOVE" and "000 §53" in exc.value.message
    s.feed(PlayerSeated(3, 1000, moved=True))  # after the big blind: plays at once (000 §52)
    s.feed(NEW_HAND)
    assert s.snapshot()["table"]["seats"]["3"]["in_hand"]


def test_TABLE_REBUY_only_between_hands_and_on_top_of_the_final_stack() -> None:
    s = session({"1": 1000, "2": 1000, "3": 1000})
    with pytest.raises(RuleViolation) as exc:
        s.feed(ChipsAdded(2, 500))
    assert exc.value.rule == "BET-TABLE-STAKES"
    fold_round(s)  # seat 3 (big blind) wins the small blind
    s.feed(ChipsAdded(2, 500))
    assert s.snapshot()["table"]["seats"]["2"]["stack"] == 995 + 500
    assert s.live_setup().seats == {1: 1000, 2: 1495, 3: 1005}
    s.feed(NEW_HAND)
    assert s.snapshot()["table"]["seats"]["2"]["stack"] == 1495  # the button now: nothing posted
    s.undo()  # the new hand, then the rebuy
    s.undo()
    assert s.snapshot()["table"]["seats"]["2"]["stack"] == 995


def test_TABLE_AWAY_an_away_player_is_dealt_and_killed_next_hand() -> None:
    s = session({"1": 1000, "2": 1000, "3": 1000, "4": 1000})
    s.feed(PlayerAway(4))
    fold_round(s)
    s.feed(NEW_HAND)
    snap = s.snapshot()
    assert snap["table"]["seats"]["4"]["away"] and snap["table"]["seats"]["4"]["folded"]
    s.feed(PlayerAway(4, away=False))
    assert not s.snapshot()["table"]["seats"]["4"]["away"]


def test_a_player_removed_between_hands_leaves_the_live_setup() -> None:
    s = session({"1": 1000, "2": 1000, "3": 1000, "4": 1000})
    with pytest.raises(RuleViolation):
        s.feed(PlayerRemoved(2))
    fold_round(s)
    s.feed(PlayerRemoved(2))
    assert 2 not in s.live_setup().seats
    s.feed(NEW_HAND)
    assert "2" not in s.snapshot()["table"]["seats"]


def test_BET_ANTES_an_ante_only_game_deals_and_bets_in_antes() -> None:
    s = session({"1": 100, "2": 100, "3": 100}, ante=5)
    with pytest.raises(InputError):
        TableSetup.from_dict({"blinds": [0, 0], "seats": {"1": 10, "2": 10}, "button": 1})  # no forced bet at all
    s = TableSession(TableSetup.from_dict({"blinds": [0, 0], "ante": 5, "seats": {"1": 100, "2": 100, "3": 100},
                                           "button": 1}))
    s.feed(CARDS_OUT)
    snap = s.snapshot(secrets=False)
    assert snap["hand"]["pot_total"] == 15 and snap["hand"]["small_blind_seat"] is None
    assert snap["hand"]["big_blind_seat"] is None
    la = snap["hand"]["legal"]
    assert la["seat"] == 2 and la["can_check"] and la["min_to"] == 5  # first left of the button; bets of an ante


def test_BET_VERBAL_a_declaration_with_no_chips_binds() -> None:
    s = session({"1": 1000, "2": 1000, "3": 1000})
    s.feed(CARDS_OUT)
    s.feed(VerbalDeclaration(1, ActionKind.RAISE, 40))
    snap = s.snapshot()
    assert snap["table"]["seats"]["1"]["bet"] == 40 and snap["hand"]["to_act"] == 2
    with pytest.raises(RuleViolation) as exc:
        s.feed(VerbalDeclaration(1, ActionKind.CALL))
    assert exc.value.rule == "BET-OUT-OF-TURN"


def _showdown(s: TableSession, hole: dict[int, str], board: str) -> None:
    order = s.hand.order
    for k in range(2):
        for seat in order:
            card = Card.parse(hole[seat][2 * k: 2 * k + 2])
            s.feed(ShoeDraw(card))
            s.feed(CardSeen(Zone("seat", seat), False, None))
    while (la := s.legal_actions()) is not None:
        s.feed(PlayerAction(la.seat, ActionKind.CHECK if la.can_check else ActionKind.CALL))
    cards = [Card.parse(board[i: i + 2]) for i in range(0, len(board), 2)]
    burns = iter(Card.parse(x) for x in ("2c", "2d", "2h"))
    for n in (3, 1, 1):
        b = next(burns)
        s.feed(ShoeDraw(b))
        s.feed(CardSeen(Zone("burn"), False, None))
        for _ in range(n):
            card = cards.pop(0)
            s.feed(ShoeDraw(card))
            s.feed(CardSeen(Zone("board"), True, card))
        while (la := s.legal_actions()) is not None:
            s.feed(PlayerAction(la.seat, ActionKind.CHECK))


def test_POT_SHOW_BOTH_playing_the_board_keeps_a_share_mucking_first_gives_it_up() -> None:
    hole = {1: "3c4d", 2: "3d4c", 3: "3h5c"}
    for says in (True, False):
        s = session({"1": 1000, "2": 1000, "3": 1000})
        _showdown(s, hole, "AsKsQsJsTs")  # a royal flush on the board: nobody beats it
        hand = s.snapshot()["hand"]
        assert hand["show_order"][0] == hand["next_to_show"] and sorted(hand["show_order"]) == [1, 2, 3]
        s.feed(BoardPlayed(2))
        s.feed(BoardPlayed(3))
        s.feed(BoardPlayed(1) if says else PlayerAction(1, ActionKind.FOLD))  # muck without saying it
        shares = {seat: chips for a in s.snapshot()["hand"]["awards"] for seat, chips in a["shares"]}
        assert shares == ({1: 10, 2: 10, 3: 10} if says else {2: 15, 3: 15})


def test_POT_CARDS_SPEAK_a_wrong_call_at_the_showdown_is_announced_not_binding() -> None:
    s = session({"1": 1000, "2": 1000})
    _showdown(s, {1: "AhAd", 2: "KhKd"}, "7c8d9sJc2s")
    events = s.feed(HandAnnounced(2, "straight"))  # seat 2 says "straight" holding kings
    assert events == []
    events = s.feed(BoardPlayed(2))
    [alert] = [e for e in events if isinstance(e, AlertRaised)]
    assert (alert.rule, alert.verdict, alert.seat) == ("POT-CARDS-SPEAK", Verdict.INFORMATION, 2)
    assert "straight" in alert.remedy and "Pair of Kings" in alert.remedy
    s.feed(HandAnnounced(1, "pair"))  # a right call: nothing to say
    events = s.feed(BoardPlayed(1))
    assert not [e for e in events if isinstance(e, AlertRaised)]
    assert s.snapshot()["hand"]["awards"][0]["shares"] == [[1, 20]]


def test_a_void_hand_restores_the_stacks_without_a_redeal() -> None:
    s = session({"1": 1000, "2": 1000, "3": 1000})
    s.feed(CARDS_OUT)
    s.feed(PlayerAction(1, ActionKind.RAISE, 50))
    s.feed(DealerDeclaration(Declaration.VOID_HAND))
    snap = s.snapshot()
    assert snap["hand"]["phase"] == "complete" and snap["hand"]["misdeal"] and s.hand_number == 1
    assert {k: v["stack"] for k, v in snap["table"]["seats"].items()} == {"1": 1000, "2": 1000, "3": 1000}
    with pytest.raises(InputError):
        s.feed(DealerDeclaration(Declaration.VOID_HAND))
    s.feed(NEW_HAND)
    assert positions(s)[0] == 1  # a voided hand moves no button (DEAL-MISDEAL-REMEDY)


@pytest.mark.parametrize("doc, where", [
    ({"type": "seat_player", "seat": 11, "stack": 5}, "o.seat"),
    ({"type": "seat_player", "seat": 3, "stack": 0}, "o.stack"),
    ({"type": "seat_player", "seat": 3, "stack": 50, "post_now": "yes"}, "o.post_now"),
    ({"type": "rebuy", "seat": 3}, "o.amount"),
    ({"type": "level", "small_blind": -1, "big_blind": 10}, "o.small_blind"),
    ({"type": "away", "seat": 3, "away": 1}, "o.away"),
    ({"type": "verbal", "seat": 3, "action": "raise"}, "o.amount"),
    ({"type": "announce", "seat": 3, "hand": "royal"}, "o.hand"),
    ({"type": "play_board"}, "o.seat"),
    ({"type": "winners", "pot": 0}, "o.seats"),
    ({"type": "winners", "pot": 0, "seats": []}, "o.seats"),
    ({"type": "winners", "pot": 0, "seats": [2, "3"]}, "o.seats[1]"),
    ({"type": "winners", "pot": 0, "seats": [2, 2]}, "o.seats"),
    ({"type": "winners", "pot": -1, "seats": [2]}, "o.pot"),
])
def test_new_observations_name_the_bad_field(doc: dict[str, Any], where: str) -> None:
    with pytest.raises(InputError) as exc:
        observation_from_dict(doc, "o")
    assert exc.value.where == where


def test_new_observations_read_back_from_json() -> None:
    for o in (PlayerSeated(3, 500, "Ann", post_now=True), PlayerRemoved(2), ChipsAdded(1, 100),
              LevelChanged(0, 0, 5), PlayerAway(4, False), VerbalDeclaration(2, ActionKind.BET, 30),
              BoardPlayed(1), HandAnnounced(1, "two-pair"), WinnersNamed(1, (2, 5))):
        assert observation_from_dict(observation_to_dict(o)) == o


def test_a_refused_table_change_changes_nothing() -> None:
    s = session({"1": 1000, "2": 1000, "3": 1000})
    fold_round(s)
    before = s.snapshot()
    for bad in (LevelChanged(0, 0, 0), ChipsAdded(9, 100), PlayerSeated(2, 500), PlayerRemoved(8)):
        with pytest.raises(InputError):
            s.feed(bad)
    assert s.snapshot() == before
    assert TableSession.replay(s.setup, s.observations).snapshot() == before


def test_POT_SHOW_BOTH_a_shown_card_the_camera_cannot_name_is_the_one_the_smart_shoe_dealt() -> None:
    """At the showdown the camera names one card of a hand and not the other: the smart shoe
    named both when they were dealt, so the hand is shown and the pot awarded, and the next
    hand can start. A hand shown twice is shown once."""
    s = session({"1": 1000, "2": 1000})
    _showdown(s, {1: "AhAd", 2: "KhKd"}, "7c8d9sJc2s")
    first = s.hand.order[0]
    other = 2 if first == 1 else 1
    hole = {1: ("Ah", "Ad"), 2: ("Kh", "Kd")}
    shown = feed(s, [CardSeen(Zone("seat", first), True, Card.parse(hole[first][0])),
                     CardSeen(Zone("seat", first), True, None)])
    assert [(e.seat, tuple(map(str, e.cards))) for e in shown if type(e).__name__ == "HandShown"] == [(first, hole[first])]
    shown = feed(s, [CardSeen(Zone("seat", other), True, None), CardSeen(Zone("seat", other), True, None),
                     CardSeen(Zone("seat", other), True, Card.parse(hole[other][1]))])
    assert [(e.seat, sorted(map(str, e.cards))) for e in shown if type(e).__name__ == "HandShown"] == [(other, sorted(hole[other]))]
    assert s.snapshot()["hand"]["awards"][0]["shares"] == [[1, 20]]
    s.feed(NEW_HAND)
    assert s.hand_number == 2


def test_POT_SHOW_BOTH_a_shown_card_the_camera_names_as_neither_card_the_smart_shoe_dealt_is_a_misread() -> None:
    """A 5c shown at the showdown, read as 5s: the shoe named the seat's cards, so the hand is
    shown with them, no alert is raised and the next hand starts. Taken as named, the engine
    refused the hand, the new hand was refused as the hand was not over, and the next deal
    counted a third hole card at the seat (a DEAL-HOLE-COUNT misdeal on a clean hand)."""
    s = session({"1": 1000, "2": 1000})
    _showdown(s, {1: "7h5c", 2: "KhKd"}, "7c8d9sJc3s")
    first = s.hand.order[0]
    other = 2 if first == 1 else 1
    hole = {1: ("7h", "5c"), 2: ("Kh", "Kd")}
    misread = {1: "5s", 2: "Ks"}
    events = feed(s, [CardSeen(Zone("seat", first), True, Card.parse(hole[first][0])),
                      CardSeen(Zone("seat", first), True, Card.parse(misread[first]))])
    events += feed(s, [CardSeen(Zone("seat", other), True, Card.parse(hole[other][0])),
                       CardSeen(Zone("seat", other), True, Card.parse(misread[other]))])
    assert not [e for e in events if isinstance(e, AlertRaised)]
    assert sorted((e.seat, tuple(sorted(map(str, e.cards)))) for e in events if type(e).__name__ == "HandShown") == [
        (1, ("5c", "7h")), (2, ("Kd", "Kh"))]
    s.feed(NEW_HAND)
    assert s.hand_number == 2


def test_POT_SHOW_BOTH_with_a_counting_shoe_an_unnamed_shown_card_leaves_the_hand_waiting() -> None:
    _waiting_on_an_unread_card()


def _waiting_on_an_unread_card() -> TableSession:
    s = session({"1": 1000, "2": 1000})
    order = s.hand.order
    for _ in range(2):
        for seat in order:
            s.feed(ShoeDraw(None))
            s.feed(CardSeen(Zone("seat", seat), False, None))
    while (la := s.legal_actions()) is not None:
        s.feed(PlayerAction(la.seat, ActionKind.CHECK if la.can_check else ActionKind.CALL))
    for n, board in ((3, "7c8d9s"), (1, "Jc"), (1, "2s")):
        s.feed(ShoeDraw(None))
        s.feed(CardSeen(Zone("burn"), False, None))
        for i in range(n):
            s.feed(ShoeDraw(None))
            s.feed(CardSeen(Zone("board"), True, Card.parse(board[2 * i: 2 * i + 2])))
        while (la := s.legal_actions()) is not None:
            s.feed(PlayerAction(la.seat, ActionKind.CHECK))
    events = feed(s, [CardSeen(Zone("seat", order[0]), True, Card.parse("Ah")), CardSeen(Zone("seat", order[0]), True, None)])
    assert not [e for e in events if type(e).__name__ == "HandShown"]  # nothing says which card it is
    with pytest.raises(RuleViolation):
        s.feed(NEW_HAND)
    return s


def test_POT_CARDS_SPEAK_the_dealer_names_the_winner_of_a_hand_no_sensor_could_read() -> None:
    """The hand above, waiting at the showdown: the dealer reads the cards and names the winner
    on the tablet (the dealer's word, POT-CARDS-SPEAK). The pot goes to that seat, the next hand
    can start; a seat not in the pot, or a second word on a paid pot, is refused and changes nothing."""
    s = _waiting_on_an_unread_card()
    winner = s.hand.order[1]
    before = s.snapshot()
    with pytest.raises(RuleViolation) as exc:
        s.feed(WinnersNamed(0, (winner, 7)))  # seat 7 has no hand here
    assert exc.value.rule == "POT-SIDE" and s.snapshot() == before
    with pytest.raises(InputError):
        s.feed(WinnersNamed(1, (winner,)))  # one pot only
    events = s.feed(WinnersNamed(0, (winner,)))
    assert [type(e).__name__ for e in events][:2] == ["WinnersDeclared", "PotAwarded"]
    assert s.snapshot()["hand"]["awards"][0]["shares"] == [[winner, 20]]
    with pytest.raises(RuleViolation):
        s.feed(WinnersNamed(0, (winner,)))
    s.feed(NEW_HAND)
    assert s.hand_number == 2
    assert TableSession.replay(s.setup, s.observations).snapshot() == s.snapshot()


def _deal(s: TableSession) -> None:
    cards = iter(Card.parse(c) for c in ("Ah", "Kd", "Qc", "Js", "Th", "9d", "8c"))
    for _ in range(2):
        for seat in s.hand.order:
            s.feed(ShoeDraw(next(cards)))
            s.feed(CardSeen(Zone("seat", seat), False, None))


@pytest.mark.parametrize("muck_seen_late", [False, True])
def test_DEAL_HOLE_COUNT_an_extra_hole_card_after_a_fold_is_caught_when_the_muck_is_seen_late(muck_seen_late: bool) -> None:
    """A player folds; the dealer draws once more and the card lands at another seat, a third hole
    card (roberts: a misdeal before two players acted). The camera sees the folded hand reach the
    muck only after that draw: the muck is still not where the drawn card went."""
    s = session({"1": 1000, "2": 1000, "3": 1000}, profile="roberts")
    _deal(s)
    folder = s.legal_actions().seat
    s.feed(PlayerAction(folder, ActionKind.FOLD))
    target = next(x for x in s.hand.order[1:] if x != folder)  # not the first seat: that one's extra card is burned
    muck = [CardSeen(Zone("muck"), False, None), CardSeen(Zone("muck"), False, None)]
    events = feed(s, ([] if muck_seen_late else muck) + [ShoeDraw(Card.parse("2c"))] + (muck if muck_seen_late else [])
                  + [CardSeen(Zone("seat", target), False, None)])
    alerts = [(e.rule, e.verdict, e.seat) for e in events if isinstance(e, AlertRaised)]
    assert alerts == [("DEAL-HOLE-COUNT", Verdict.MISDEAL, target)]


def test_DEAL_BURN_a_folded_hand_reaching_the_muck_after_the_burn_is_not_where_the_flop_card_went() -> None:
    """The camera path at seed 14: the last player folds before the flop, and the camera sees his
    two cards reach the muck one at a time, the second only after the burn has landed and the
    flop's first card has been drawn. That card is not a second burn thrown in the muck: it lands
    on the board, and nothing is wrong."""
    s = session({"1": 1000, "2": 1000, "3": 1000}, profile="roberts")
    _deal(s)
    s.feed(PlayerAction(s.legal_actions().seat, ActionKind.FOLD))
    while (la := s.legal_actions()) is not None:
        s.feed(PlayerAction(la.seat, ActionKind.CHECK if la.can_check else ActionKind.CALL))
    muck = CardSeen(Zone("muck"), False, None)
    flop = [Card.parse(c) for c in ("7c", "8d", "9s")]
    observations = [ShoeDraw(Card.parse("2c")), muck, CardSeen(Zone("burn"), False, None), ShoeDraw(flop[0]), muck]
    for k, card in enumerate(flop):
        if k:
            observations.append(ShoeDraw(card))
        observations.append(CardSeen(Zone("board"), True, card))
    events = feed(s, observations)
    assert [(e.rule, e.verdict) for e in events if isinstance(e, AlertRaised)] == []
    assert s.snapshot()["hand"]["board"] == ["7c", "8d", "9s"]


def _folded_before_the_flop() -> TableSession:
    s = session({"1": 1000, "2": 1000, "3": 1000}, profile="roberts")
    _deal(s)
    s.feed(PlayerAction(s.legal_actions().seat, ActionKind.FOLD))
    while (la := s.legal_actions()) is not None:
        s.feed(PlayerAction(la.seat, ActionKind.CHECK if la.can_check else ActionKind.CALL))
    return s


def test_DEAL_DECK_a_folded_hands_second_card_seen_in_the_muck_after_a_flop_card_landed_is_not_the_next_card() -> None:
    """The camera path at seed 16: a player folds before the flop; the camera sees one of his
    cards reach the muck at once, the other only after the burn, the flop's first card on the
    board and the second card drawn (the muck pile's count lagged eight frames). The muck is not
    where that second card went: it lands on the board, and nothing is wrong."""
    s = _folded_before_the_flop()
    muck = CardSeen(Zone("muck"), False, None)
    flop = [Card.parse(c) for c in ("7c", "8d", "9s")]
    events = feed(s, [muck, ShoeDraw(Card.parse("2c")), CardSeen(Zone("burn"), False, None),
                      ShoeDraw(flop[0]), CardSeen(Zone("board"), True, flop[0]),
                      ShoeDraw(flop[1]), muck, CardSeen(Zone("board"), True, flop[1]),
                      ShoeDraw(flop[2]), CardSeen(Zone("board"), True, flop[2])])
    assert [(e.rule, e.verdict) for e in events if isinstance(e, AlertRaised)] == []
    assert s.snapshot()["hand"]["board"] == ["7c", "8d", "9s"]


def test_DEAL_BURN_once_a_folded_hand_is_all_in_the_muck_a_drawn_card_seen_there_is_where_it_went() -> None:
    """Both folded cards seen in the muck: the next card the muck gets after a draw is the drawn
    card (burned into the muck), as before any fold; the flop then needs no other burn."""
    s = _folded_before_the_flop()
    muck = CardSeen(Zone("muck"), False, None)
    flop = [Card.parse(c) for c in ("7c", "8d", "9s")]
    observations: list[Observation] = [muck, muck, ShoeDraw(Card.parse("2c")), muck]
    for card in flop:
        observations += [ShoeDraw(card), CardSeen(Zone("board"), True, card)]
    events = feed(s, observations)
    assert [(e.rule, e.verdict) for e in events if isinstance(e, AlertRaised)] == []
    assert s.snapshot()["hand"]["board"] == ["7c", "8d", "9s"]


def test_POT_SHOW_BOTH_a_card_exposed_during_the_betting_counts_as_shown_at_the_showdown() -> None:
    """A player turns a card up during the betting (DEAL-PLAYER-EXPOSED) and it stays face up. At
    the showdown the camera reports only the card turned then: the hand is shown with both, the
    pot is awarded and the next hand can start."""
    s = session({"1": 1000, "2": 1000})
    order = s.hand.order
    hole = {order[0]: ("Ah", "Ad"), order[1]: ("Kh", "Kd")}
    for k in range(2):
        for seat in order:
            s.feed(ShoeDraw(Card.parse(hole[seat][k])))
            s.feed(CardSeen(Zone("seat", seat), False, None))
    events = s.feed(CardSeen(Zone("seat", order[1]), True, Card.parse("Kh")))
    assert [(e.rule, e.seat) for e in events if isinstance(e, AlertRaised)] == [("DEAL-PLAYER-EXPOSED", order[1])]
    while (la := s.legal_actions()) is not None:
        s.feed(PlayerAction(la.seat, ActionKind.CHECK if la.can_check else ActionKind.CALL))
    for n, board in ((3, "7c8d9s"), (1, "Jc"), (1, "2s")):
        s.feed(ShoeDraw(Card.parse("3c" if n == 3 else "3d" if board == "Jc" else "3h")))
        s.feed(CardSeen(Zone("burn"), False, None))
        for i in range(n):
            card = Card.parse(board[2 * i: 2 * i + 2])
            s.feed(ShoeDraw(card))
            s.feed(CardSeen(Zone("board"), True, card))
        while (la := s.legal_actions()) is not None:
            s.feed(PlayerAction(la.seat, ActionKind.CHECK))
    shown = feed(s, [CardSeen(Zone("seat", order[0]), True, Card.parse("Ah")), CardSeen(Zone("seat", order[0]), True, Card.parse("Ad")),
                     CardSeen(Zone("seat", order[1]), True, Card.parse("Kd"))])
    hands = {e.seat: sorted(map(str, e.cards)) for e in shown if type(e).__name__ == "HandShown"}
    assert hands == {order[0]: ["Ad", "Ah"], order[1]: ["Kd", "Kh"]}
    s.feed(NEW_HAND)
    assert s.hand_number == 2


@pytest.mark.parametrize("hole, guess, named", [
    (("Js", "4d"), "Js", True),  # the shoe dealt the guessed card there: it is the card exposed
    (("Js", "4d"), "Jc", False),  # not dealt there: the guess is a misread
    (("Js", "Jc"), "Js", False),  # the other card is one a misread of Js could be: it may be that one
    (("6h", "8h"), "8h", False),
    (None, "Js", False),  # a counting shoe names nothing
])
def test_DEAL_PLAYER_EXPOSED_a_card_the_camera_only_guesses_is_named_where_the_smart_shoe_dealt_it(
        hole: tuple[str, str] | None, guess: str, named: bool) -> None:
    """A player turns a card up during the betting and the camera reads it too unsurely to name
    it alone (a jack of spades at 0.88, seed 13 of the camera loop). Where the smart shoe dealt
    the guessed card to that seat, the exposure is named; otherwise the dealer is asked to check,
    and a guess that could be the seat's other card never names it."""
    s = session({"1": 1000, "2": 1000})
    order = s.hand.order
    cards = {order[0]: ("Ah", "Ad"), order[1]: hole or ("Kh", "Kd")}
    for k in range(2):
        for seat in order:
            s.feed(ShoeDraw(Card.parse(cards[seat][k]) if hole else None))
            s.feed(CardSeen(Zone("seat", seat), False, None))
    events = s.feed(CardSeen(Zone("seat", order[1]), True, None, 0.0, guess=Card.parse(guess)))  # as the tracker reports it
    alerts = [e for e in events if isinstance(e, AlertRaised)]
    assert [(e.rule, e.seat) for e in alerts] == [("DEAL-PLAYER-EXPOSED", order[1])]
    if named:
        assert alerts[0].verdict is Verdict.INFORMATION and f"exposed {guess}" in alerts[0].remedy.replace("♠", "s")
    else:
        assert alerts[0].verdict is Verdict.UNCERTAIN and not any(c in alerts[0].remedy for c in ("Js", "Jc", "8h", "J♠"))


def test_DEAL_ORDER_a_hole_card_seen_late_under_a_lifted_hand_is_the_one_taken_as_dealt_there() -> None:
    """A hole card lands under a player's hand: the shoe counted it, nobody saw it land, and it is
    taken as dealt to the seat whose turn it was (DEAL-ORDER, uncertain). When the hand lifts the
    camera sees it: that is the same card, not one the shoe did not count."""
    s = session({"1": 1000, "2": 1000, "3": 1000})
    order = s.hand.order
    cards = iter(Card.parse(c) for c in ("Ah", "Kd", "Qc", "Js", "Th", "9d"))
    alerts: list[tuple[str, str]] = []
    for k in range(2):
        for i, seat in enumerate(order):
            events = s.feed(ShoeDraw(next(cards)))
            if (k, i) != (0, 1):  # the second card lands under seat order[1]'s hand
                events += s.feed(CardSeen(Zone("seat", seat), False, None))
            if (k, i) == (0, 2):
                events += s.feed(CardSeen(Zone("seat", order[1]), False, None))  # the hand lifts
            alerts += [(e.rule, e.verdict.value) for e in events if isinstance(e, AlertRaised)]
    assert alerts == [("DEAL-ORDER", "uncertain")]
    assert s.snapshot()["hand"]["to_act"] is not None  # the deal is complete: the betting is open
