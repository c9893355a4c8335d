"""Across hands: TABLE-BUTTON, TABLE-DEAD-BUTTON (000 §21-24), heads-up, new and away players, misdeals."""

from __future__ import annotations

import pytest

from dealer_pi.engine.cards import parse_cards
from dealer_pi.engine.errors import InputError, RuleViolation
from dealer_pi.engine.events import (
    ActionTaken,
    BoardDealt,
    HandShown,
    HoleCardsDealt,
    MisdealDeclared,
)
from dealer_pi.engine.hand import Hand
from dealer_pi.engine.legal import legal_actions
from dealer_pi.engine.observations import ActionKind as A
from dealer_pi.engine.profiles import get_profile, profile_from_mapping
from dealer_pi.engine.state import Phase
from dealer_pi.engine.table_session import TableSetup
from dealer_pi.engine.table import (
    NextHand,
    TableState,
    add_chips,
    finish_hand,
    new_table,
    next_hand,
    seat_player,
    set_away,
    set_level,
)

WIN, LOSE = "AhAd", "7c2d"
BOARD = ("KsQs9h", "4c", "3s")


def run(table: TableState, losers: tuple[int, ...] = (), winner: int = 0) -> tuple[TableState, NextHand, Hand]:
    """Play one hand: ``losers`` go all-in against ``winner`` and lose; everyone else folds."""
    nh = next_hand(table)
    hand = Hand(nh.started)
    for k in nh.killed:
        hand.apply(k)
    if winner:
        hand.apply(HoleCardsDealt(winner, tuple(parse_cards(WIN))))
        for k, s in enumerate(losers):
            hand.apply(HoleCardsDealt(s, tuple(parse_cards(("7c2d", "8c3d", "6c2h")[k]))))
    boards = iter(BOARD)
    while not hand.state.is_complete:
        st = hand.state
        if st.phase is Phase.BETTING:
            seat = st.seat_to_act
            assert seat is not None
            kind = A.ALL_IN if seat in losers else A.CALL if seat == winner else A.FOLD
            hand.apply(ActionTaken(seat, kind))
        elif st.phase is Phase.DEALING:
            hand.apply(BoardDealt(tuple(parse_cards(next(boards)))))
        else:
            for i in range(len(st.order)):
                if not st.folded[i] and st.shown[i] is None:
                    hand.apply(HandShown(st.order[i]))
                    break
    return finish_hand(table, nh, hand.state), nh, hand


def positions(nh: NextHand) -> tuple[int, int | None, int]:
    return nh.button, (nh.small_blind_seat if nh.small_blind_posted else None), nh.big_blind_seat


FIVE = {1: 100, 2: 100, 3: 100, 4: 100, 5: 100}


def test_TABLE_BUTTON_moves_one_seat_clockwise_each_hand() -> None:
    t = new_table(FIVE, 1, 2, button=1)
    seen = []
    for _ in range(6):
        nh = next_hand(t)
        seen.append(positions(nh))
        t, _, _ = run(t)
    assert seen == [(1, 2, 3), (2, 3, 4), (3, 4, 5), (4, 5, 1), (5, 1, 2), (1, 2, 3)]


def test_TABLE_BUTTON_skips_empty_seats_and_starts_with_the_first_seated_player() -> None:
    t = new_table({2: 100, 5: 100, 9: 100}, 1, 2)
    assert positions(next_hand(t)) == (2, 5, 9)
    t, _, _ = run(t)
    assert positions(next_hand(t)) == (5, 9, 2)


def test_TABLE_BUTTON_moving_button_profile_skips_a_busted_small_blind() -> None:
    prof = profile_from_mapping("standard", {"dead_button": False})
    t = new_table(FIVE, 1, 2, button=1, profile=prof)
    t, _, _ = run(t, losers=(2,), winner=4)
    assert t.seat(2) is None
    assert positions(next_hand(t)) == (3, 4, 5)


@pytest.mark.parametrize(("profile", "after"), [
    ("standard", (2, 3, 4)),  # 000 §22: the button moves onto the busted small blind's seat (dead button)
    ("roberts", (2, 3, 4)),
    ("house-pig", (2, 3, 4)),
    ("online", (3, 4, 5)),  # 004: "the button moves clockwise to the next active player"
])
def test_TABLE_DEAD_BUTTON_after_the_small_blind_busts_by_profile(profile: str, after: tuple[int, int, int]) -> None:
    t = new_table(FIVE, 1, 2, button=1, profile=get_profile(profile))
    t, nh, _ = run(t, losers=(2,), winner=4)
    assert positions(nh) == (1, 2, 3) and t.seat(2) is None
    assert positions(next_hand(t)) == after
    if profile == "online":
        assert t.seat(after[0]) is not None  # the button never sits on an empty seat


def test_TABLE_NEW_PLAYER_online_waiting_player_gets_the_big_blind_in_turn() -> None:
    """With the moving button (004) a new player who waits is dealt in when the big blind reaches him."""
    t = new_table(FIVE, 1, 2, button=1, profile=get_profile("online"))
    t, _, _ = run(t)  # button 1, blinds 2 and 3
    t = seat_player(t, 7, 100)
    seen = []
    for _ in range(3):
        nh = next_hand(t)
        seen.append((positions(nh), 7 in nh.dealt))
        t, _, _ = run(t)
    assert seen == [((2, 3, 4), False), ((3, 4, 5), False), ((4, 5, 7), True)]


def test_TABLE_DEAD_BUTTON_big_blind_eliminated_no_small_blind_then_dead_button() -> None:
    # 000 §21
    t = new_table(FIVE, 1, 2, button=1)
    t, nh, _ = run(t, losers=(3,), winner=4)
    assert positions(nh) == (1, 2, 3) and t.seat(3) is None
    nh = next_hand(t)
    assert positions(nh) == (2, None, 4) and nh.small_blind_seat == 3
    t, _, _ = run(t)
    assert positions(next_hand(t)) == (3, 4, 5)  # the button on the empty seat 3


def test_TABLE_DEAD_BUTTON_small_blind_eliminated_button_goes_to_its_seat() -> None:
    # 000 §22
    t = new_table(FIVE, 1, 2, button=1)
    t, _, _ = run(t, losers=(2,), winner=4)
    assert positions(next_hand(t)) == (2, 3, 4)
    t, _, _ = run(t)
    assert positions(next_hand(t)) == (3, 4, 5)


def test_TABLE_DEAD_BUTTON_both_blinds_eliminated() -> None:
    # 000 §23: the button to the former small blind's seat and no small blind; then the former big blind's seat.
    t = new_table(FIVE, 1, 2, button=1)
    t, _, _ = run(t, losers=(2, 3), winner=4)
    assert t.seat(2) is None and t.seat(3) is None
    nh = next_hand(t)
    assert positions(nh) == (2, None, 4)
    t, _, _ = run(t)
    assert positions(next_hand(t)) == (3, 4, 5)


def test_TABLE_DEAD_BUTTON_nobody_misses_a_big_blind() -> None:
    # 000 §24: with eliminations along the way, the big blind still reaches every player in turn.
    t = new_table({1: 100, 2: 100, 3: 100, 4: 100, 5: 100, 6: 100}, 1, 2, button=1)
    bbs = []
    for k in range(9):
        nh = next_hand(t)
        bbs.append(nh.big_blind_seat)
        if k == 1:
            t, _, _ = run(t, losers=(4,), winner=6)  # the big blind busts
        elif k == 4:
            t, _, _ = run(t, losers=(1,), winner=6)
        else:
            t, _, _ = run(t)
    assert bbs == [3, 4, 5, 6, 1, 2, 3, 5, 6]


def test_TABLE_BUTTON_heads_up_reversal_when_down_to_two() -> None:
    t = new_table({1: 100, 2: 100, 3: 100}, 1, 2, button=1)
    t, _, _ = run(t, losers=(2,), winner=3)
    nh = next_hand(t)
    assert nh.button == nh.small_blind_seat and nh.small_blind_posted
    assert nh.big_blind_seat != nh.button
    hand = Hand(nh.started)
    assert hand.state.seat_to_act == nh.button  # BET-HEADS-UP: the button acts first preflop
    t, _, _ = run(t)
    nh2 = next_hand(t)
    assert nh2.big_blind_seat == nh.button  # the blinds alternate


def test_TABLE_BUTTON_busted_players_leave_and_the_last_one_wins() -> None:
    t = new_table({1: 100, 2: 100, 3: 100}, 1, 2, button=1)
    t, _, _ = run(t, losers=(2, 3), winner=1)
    assert [s.seat for s in t.seats] == [1] and t.seats[0].stack == 300
    with pytest.raises(InputError):
        next_hand(t)


def test_TABLE_NEW_PLAYER_waits_for_the_big_blind_or_posts_at_once() -> None:
    t = new_table(FIVE, 1, 2, button=1)
    t, _, _ = run(t)  # button 1, blinds 2 and 3
    waiting = seat_player(t, 7, 100)
    nh = next_hand(waiting)
    assert 7 not in [s.seat for s in nh.started.setup.seats]
    posting = seat_player(t, 7, 100, post_now=True)
    nh = next_hand(posting)
    seven = next(s for s in nh.started.setup.seats if s.seat == 7)
    assert seven.blind == 2
    hand = Hand(nh.started)
    assert hand.state.seat_to_act == 5  # left of the real big blind (seat 4), not of the new player
    for _ in range(2):
        waiting, _, _ = run(waiting)
    nh = next_hand(waiting)
    assert nh.big_blind_seat == 7 and 7 in nh.dealt  # the big blind reached the new player


@pytest.mark.parametrize(("profile", "dealt"), [("standard", True), ("house-pig", False)])
def test_TABLE_AWAY_pays_forced_bets_and_is_folded(profile: str, dealt: bool) -> None:
    t = new_table(FIVE, 1, 2, button=1, profile=get_profile(profile), ante=1)
    t = set_away(t, 3, True)  # seat 3 has the big blind
    nh = next_hand(t)
    assert (3 in nh.dealt) is dealt
    hand = Hand(nh.started)
    for k in nh.killed:
        hand.apply(k)
    st = hand.state
    assert st.folded[st.index_of[3]] and st.total[st.index_of[3]] == 3  # ante and big blind forfeited
    assert st.seat_to_act == 4


def test_TABLE_REBUY_only_between_hands_adds_chips() -> None:
    t = add_chips(new_table(FIVE, 1, 2), 2, 50)
    assert t.seat(2).stack == 150  # type: ignore[union-attr]
    assert next(s.stack for s in next_hand(t).started.setup.seats if s.seat == 2) == 150


@pytest.mark.parametrize("profile", ["standard", "roberts", "house-pig"])
def test_DEAL_MISDEAL_REMEDY_keeps_the_button_and_restores_stacks(profile: str) -> None:
    t = new_table(FIVE, 1, 2, button=1, profile=get_profile(profile))
    nh = next_hand(t)
    hand = Hand(nh.started).apply(ActionTaken(4, A.CALL))
    hand.apply(MisdealDeclared("DEAL-HOLE-EXPOSED"))
    assert hand.state.final_stacks() == FIVE and hand.state.misdeal
    t2 = finish_hand(t, nh, hand.state)
    assert t2 == t and positions(next_hand(t2)) == positions(nh)


def test_DEAL_MISDEAL_LOCK_two_players_after_the_blinds_acted_house_pig() -> None:
    t = new_table(FIVE, 1, 2, button=1, profile=get_profile("house-pig"))
    hand = Hand(next_hand(t).started).apply(ActionTaken(4, A.CALL)).apply(ActionTaken(5, A.CALL))
    with pytest.raises(RuleViolation) as err:
        hand.apply(MisdealDeclared("DEAL-HOLE-EXPOSED"))
    assert err.value.rule == "DEAL-MISDEAL-LOCK"
    std = new_table(FIVE, 1, 2, button=1)
    hand = Hand(next_hand(std).started).apply(ActionTaken(4, A.CALL)).apply(ActionTaken(5, A.CALL))
    hand.apply(MisdealDeclared("DEAL-HOLE-EXPOSED"))  # standard: no lock
    assert hand.state.misdeal


def test_TABLE_LEVELS_new_blinds_apply_from_the_next_hand() -> None:
    t = new_table(FIVE, 1, 2, button=1)
    nh = next_hand(t)
    t = set_level(t, 5, 10, ante=1)
    assert {s.blind for s in nh.started.setup.seats} == {0, 1, 2}  # the hand already set up keeps its level
    nh2 = next_hand(t)
    assert {s.blind for s in nh2.started.setup.seats} == {0, 5, 10} and {s.ante for s in nh2.started.setup.seats} == {1}


def test_BET_ANTES_ante_only_game_is_accepted_where_a_setup_has_no_blinds() -> None:
    """000 §19a speaks of "an ante only game": both blinds 0 and an ante. The first to act is
    left of the button, checking is allowed, and the smallest bet is the ante (BET-NL-MIN)."""
    setup = TableSetup.from_dict({"blinds": [0, 0], "ante": 5, "seats": {"1": 100, "2": 100, "3": 100}, "button": 1})
    t = new_table(dict(setup.seats), 0, 0, button=1, ante=5)
    hand = Hand(next_hand(t).started)
    st = hand.state
    assert st.pot_total() == 15 and st.current_bet == 0 and st.seat_to_act == 2
    la = legal_actions(st)
    assert la is not None and la.can_check and la.min_to == 5
    t2 = set_level(t, 0, 0, ante=10)
    assert next_hand(t2).started.setup.small_bet == 10


@pytest.mark.parametrize(("blinds", "ante", "why"), [
    ((0, 0), 0, "a big blind or an ante"),
    ((5, 0), 5, "a small blind needs a big blind"),
])
def test_BET_BLINDS_a_game_without_a_big_blind_needs_an_ante(blinds: tuple[int, int], ante: int, why: str) -> None:
    with pytest.raises(InputError) as err:
        TableSetup.from_dict({"blinds": list(blinds), "ante": ante, "seats": {"1": 100, "2": 100}, "button": 1})
    assert why in err.value.message and err.value.where == "setup.blinds"
    with pytest.raises(InputError):
        set_level(new_table(FIVE, 1, 2), blinds[0], blinds[1], ante=ante)
