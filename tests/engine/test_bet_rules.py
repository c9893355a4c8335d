"""One test (at least) per BET-* rule, per profile where the profiles differ."""

from __future__ import annotations

import pytest
from handkit import chips_in_play, play, start

from dealer_pi.engine.errors import RuleViolation
from dealer_pi.engine.events import (
    ActionTaken,
    AntePosted,
    BetPlaced,
    BlindPosted,
    ChipsOwed,
    ChipsPlaced,
    ExcessReturned,
    HandKilled,
    UncalledBetReturned,
)
from dealer_pi.engine.hand import Hand, apply, replay
from dealer_pi.engine.legal import legal_actions
from dealer_pi.engine.phh import BetRaise
from dealer_pi.engine.phh_replay import hand_to_phh
from dealer_pi.engine.observations import ActionKind as A
from dealer_pi.engine.observations import ChipsPushed, PlayerAction
from dealer_pi.engine.profiles import get_profile, profile_from_mapping
from dealer_pi.engine.table_session import TableSession, TableSetup, event_to_json
from dealer_pi.engine.setup import (
    HandSetup,
    SeatSetup,
    Structure,
    blinds_setup,
    default_small_blind,
)

THREE = {1: 100, 2: 100, 3: 100}


def refused(hand: Hand, script: str, rule: str) -> None:
    before = hand.state.to_dict(reveal_hole_cards=True)
    with pytest.raises(RuleViolation) as err:
        play(hand, script)
    assert err.value.rule == rule
    assert hand.state.to_dict(reveal_hole_cards=True) == before


# ---------------------------------------------------------------- blinds, antes, order


def test_BET_BLINDS_small_left_of_button_big_next() -> None:
    h = start(THREE, button=3, sb=1, bb=2)
    assert h.state.final_stacks() == {1: 99, 2: 98, 3: 100}
    assert [type(o) for o in h.outcomes] == [BlindPosted, BlindPosted]
    assert h.state.current_bet == 2


def test_BET_BLINDS_limit_small_blind_is_half_the_small_bet_rounded_down() -> None:
    assert default_small_blind(5, Structure.LIMIT) == 2
    h = start(THREE, button=3, sb=default_small_blind(5, Structure.LIMIT), bb=5, structure=Structure.LIMIT)
    assert h.state.final_stacks() == {1: 98, 2: 95, 3: 100}


def test_BET_ANTES_posted_before_the_blinds_and_dead() -> None:
    h = start(THREE, button=3, ante=5)
    kinds = [type(o) for o in h.outcomes]
    assert kinds == [AntePosted, AntePosted, AntePosted, BlindPosted, BlindPosted]
    assert h.state.current_bet == 2  # antes are not part of the bet to call
    assert legal_actions(h.state).to_call == 2  # type: ignore[union-attr]


def test_BET_ANTES_big_blind_ante_paid_by_the_big_blind_only() -> None:
    h = start(THREE, button=3, big_blind_ante=2)
    assert h.state.final_stacks() == {1: 99, 2: 96, 3: 100}
    play(h, "3 c, 1 c, 2 x")
    assert h.state.pots()[0].amount == 8


def test_BET_SHORT_POST_short_big_blind_posts_all_in_and_others_call_the_full_blind() -> None:
    h = start({1: 100, 2: 1, 3: 100}, button=3)
    assert h.state.stacks[h.state.index_of[2]] == 0
    la = legal_actions(h.state)
    assert la is not None and la.seat == 3 and la.to_call == 2
    play(h, "3 c, 1 c")
    pots = h.state.pots()
    # 000 §19b: the main pot is the all-in amount times the callers; the rest is a side pot.
    assert [(p.amount, [h.state.order[i] for i in p.eligible]) for p in pots] == [(3, [1, 2, 3]), (2, [1, 3])]


def test_BET_SHORT_POST_ante_all_in_leaves_the_blind_absent() -> None:
    # 000 §19d: all-in within the ante: main pot is the all-in amount times the players.
    h = start({1: 100, 2: 3, 3: 100}, button=3, ante=5)
    st = h.state
    assert st.stacks[st.index_of[2]] == 0 and st.bets[st.index_of[2]] == 0
    play(h, "3 c, 1 c")
    pots = h.state.pots()
    assert (pots[0].amount, sorted(h.state.order[i] for i in pots[0].eligible)) == (9, [1, 2, 3])
    assert 2 not in [h.state.order[i] for p in pots[1:] for i in p.eligible]


@pytest.mark.parametrize("profile", ["standard", "roberts", "house-pig", "online"])
def test_BET_SHORT_POST_phantom_big_blind_next_player_faces_the_small_blind(profile: str) -> None:
    """000 §19d: the big blind covers part of the ante and none of the blind: "the blind will be
    absent". Nobody must call a big blind nobody posted: the next player faces the small blind."""
    h = start({1: 100, 2: 3, 3: 100}, button=3, ante=5, profile=profile)
    assert [type(o) for o in h.outcomes] == [AntePosted, AntePosted, AntePosted, BlindPosted]  # no blind from 2
    la = legal_actions(h.state)
    assert la is not None and (la.seat, la.to_call, la.current_bet, la.min_to) == (3, 1, 1, 3)
    play(h, "3 c, 1 x")  # the small blind has nothing more to call: the round is over
    assert h.state.phase.value == "dealing" and h.state.pot_total() == 15


def test_BET_SHORT_POST_phantom_big_blind_heads_up_nobody_acts() -> None:
    # The button's small blind is the only blind posted and the big blind is all-in: no decision is left.
    h = start({1: 100, 2: 4}, button=1, sb=1, bb=2, ante=5)
    assert h.state.phase.value == "dealing" and legal_actions(h.state) is None


def test_BET_HEADS_UP_button_posts_small_blind_acts_first_then_last() -> None:
    h = start({2: 100, 5: 100}, button=5)
    assert h.state.final_stacks() == {2: 98, 5: 99}
    assert h.state.seat_to_act == 5
    play(h, "5 c, 2 x, board AhKd2c")
    assert h.state.seat_to_act == 2


def test_BET_ORDER_left_of_big_blind_first_and_big_blind_has_the_option() -> None:
    h = start({1: 100, 2: 100, 3: 100, 4: 100}, button=4)
    assert h.state.seat_to_act == 3
    play(h, "3 c, 4 c, 1 c")
    la = legal_actions(h.state)
    assert la is not None and la.seat == 2 and la.can_check and la.can_raise
    play(h, "2 x, board AhKd2c")
    assert h.state.seat_to_act == 1  # first active left of the button


def test_BET_ORDER_postflop_skips_folded_and_all_in_players() -> None:
    h = start({1: 10, 2: 100, 3: 100, 4: 100}, button=4)
    play(h, "3 c, 4 c, 1 a, 2 c, 3 c, 4 f, board AhKd2c")
    assert h.state.seat_to_act == 2


def test_BET_ORDER_cannot_check_facing_a_bet() -> None:
    refused(start(THREE, button=3), "3 x", "BET-ORDER")


def test_BET_CHECK_RAISE_is_allowed() -> None:
    h = play(start(THREE, button=3), "3 c, 1 c, 2 x, board AhKd2c, 1 x, 2 r 10, 3 f")
    play(h, "1 r 30")
    assert h.state.current_bet == 30 and h.state.seat_to_act == 2


# ---------------------------------------------------------------- sizes


def test_BET_NL_MIN_bet_at_least_the_big_blind() -> None:
    h = play(start(THREE, button=3, sb=5, bb=10), "3 c, 1 c, 2 x, board AhKd2c")
    refused(h, "1 r 5", "BET-NL-MIN")
    play(h, "1 r 10")


def test_BET_NL_MIN_raise_at_least_the_previous_raise() -> None:
    h = play(start(THREE, button=3, sb=1, bb=2), "3 r 6")  # a raise of 4
    refused(h, "1 r 9", "BET-NL-MIN")
    play(h, "1 r 10")
    la = legal_actions(h.state)
    assert la is not None and la.min_to == 14


def test_BET_UNDER_RAISE_half_or_more_must_complete() -> None:
    h = play(start(THREE, button=3, sb=1, bb=2), "3 r 10")  # minimum raise is 8 more, to 18
    h.apply(ChipsPlaced(1, 14))  # to 15: a raise of 5, at least half of 8
    st = h.state
    assert st.bets[st.index_of[1]] == 18 and st.current_bet == 18
    assert st.stacks[st.index_of[1]] == 82  # the seat had to add 3 more to complete


def test_BET_UNDER_RAISE_less_than_half_is_a_call_with_the_excess_returned() -> None:
    h = play(start(THREE, button=3, sb=1, bb=2), "3 r 10")
    h.apply(ChipsPlaced(1, 12))  # to 13: a raise of 3, less than half of 8
    st = h.state
    assert st.bets[st.index_of[1]] == 10 and st.current_bet == 10
    assert ExcessReturned(1, 3, "BET-UNDER-RAISE") in h.outcomes
    assert st.stacks[st.index_of[1]] == 90


def test_BET_UNDER_RAISE_refused_when_the_profile_says_so() -> None:
    prof = profile_from_mapping("standard", {"under_raise": "refuse"})
    h = play(start(THREE, button=3, profile=prof), "3 r 10")
    with pytest.raises(RuleViolation) as err:
        h.apply(ChipsPlaced(1, 14))
    assert err.value.rule == "BET-UNDER-RAISE"


def test_BET_PL_MAX_largest_raise_is_the_pot_after_the_call() -> None:
    h = start(THREE, button=3, structure=Structure.POT_LIMIT)
    la = legal_actions(h.state)
    assert la is not None and la.max_to == 7  # pot 3 + call 2 = 5, raise to 2 + 5
    refused(h, "3 r 8", "BET-PL-MAX")
    play(h, "3 r 7")
    la = legal_actions(h.state)
    assert la is not None and la.max_to == 23  # pot 10 + call 6 = 16, to 7 + 16


def test_BET_PL_MAX_oversized_chip_with_raise_is_the_most_allowed() -> None:
    h = start(THREE, button=3, structure=Structure.POT_LIMIT)
    h.apply(ChipsPlaced(3, 50, single_chip=True, declared=A.RAISE))
    assert h.state.current_bet == 7
    assert ExcessReturned(3, 43, "BET-OVERSIZED-CHIP") in h.outcomes


LIMIT4 = {1: 500, 2: 500, 3: 500, 4: 500}


def limit_hand(stacks: dict[int, int], profile: str, button: int) -> Hand:
    return start(stacks, button=button, sb=2, bb=5, structure=Structure.LIMIT, big_bet=10, profile=profile)


@pytest.mark.parametrize("profile", ["standard", "online"])
def test_BET_LIMIT_fixed_sizes_small_then_big_bet(profile: str) -> None:
    h = limit_hand(LIMIT4, profile, button=4)
    refused(h, "3 r 12", "BET-LIMIT")
    play(h, "3 r 10, 4 c, 1 c, 2 c, board AhKd2c")
    la = legal_actions(h.state)
    assert la is not None and (la.min_to, la.max_to) == (5, 5)
    play(h, "1 r 5, 2 c, 3 c, 4 c, board 7s")
    la = legal_actions(h.state)
    assert la is not None and (la.min_to, la.max_to) == (10, 10)


@pytest.mark.parametrize("profile", ["standard", "online"])
def test_BET_LIMIT_cap_of_one_bet_and_three_raises_multiway(profile: str) -> None:
    h = limit_hand(LIMIT4, profile, button=4)
    play(h, "3 r 10, 4 r 15, 1 r 20")  # the big blind is the bet; three raises
    la = legal_actions(h.state)
    assert la is not None and not la.can_raise and la.raise_closed_by == "BET-LIMIT"
    refused(h, "2 r 25", "BET-LIMIT")


def test_BET_LIMIT_heads_up_lifts_the_cap_in_standard() -> None:
    h = limit_hand({1: 500, 2: 500}, "standard", button=1)
    play(h, "1 r 10, 2 r 15, 1 r 20, 2 r 25, 1 r 30")  # 000 §10: no cap heads-up
    assert h.state.current_bet == 30


def test_BET_LIMIT_heads_up_keeps_the_cap_online() -> None:
    h = limit_hand({1: 500, 2: 500}, "online", button=1)
    play(h, "1 r 10, 2 r 15, 1 r 20")
    refused(h, "2 r 25", "BET-LIMIT")


# ---------------------------------------------------------------- chips and words


def test_BET_OVERSIZED_CHIP_no_limit_preflop_is_a_call() -> None:
    h = start(THREE, button=3, sb=5, bb=10)
    h.apply(ChipsPlaced(3, 100, single_chip=True))
    assert h.state.current_bet == 10 and h.state.bets[h.state.index_of[3]] == 10
    assert ExcessReturned(3, 90, "BET-OVERSIZED-CHIP") in h.outcomes


def test_BET_OVERSIZED_CHIP_no_limit_postflop_initial_bettor_bets_the_chip() -> None:
    h = play(start({1: 500, 2: 500, 3: 500}, button=3, sb=5, bb=10), "3 c, 1 c, 2 x, board AhKd2c")
    h.apply(ChipsPlaced(1, 100, single_chip=True))
    assert h.state.current_bet == 100


def test_BET_OVERSIZED_CHIP_no_limit_facing_a_bet_is_a_call() -> None:
    h = play(start({1: 500, 2: 500, 3: 500}, button=3, sb=5, bb=10), "3 c, 1 c, 2 x, board AhKd2c, 1 r 20")
    h.apply(ChipsPlaced(2, 100, single_chip=True))
    assert h.state.current_bet == 20 and h.state.bets[h.state.index_of[2]] == 20


def test_BET_OVERSIZED_CHIP_limit_is_a_call() -> None:
    h = limit_hand(LIMIT4, "standard", button=4)
    h.apply(ChipsPlaced(3, 25, single_chip=True))
    assert h.state.current_bet == 5 and h.state.bets[h.state.index_of[3]] == 5


def test_BET_OVERSIZED_CHIP_with_raise_stated_no_limit_raises_the_chip() -> None:
    h = play(start({1: 500, 2: 500, 3: 500}, button=3, sb=5, bb=10), "3 c, 1 c, 2 x, board AhKd2c, 1 r 20")
    h.apply(ChipsPlaced(2, 100, single_chip=True, declared=A.RAISE))
    assert h.state.current_bet == 100


def test_BET_VERBAL_declaration_wins_over_the_chips() -> None:
    h = play(start({1: 500, 2: 500, 3: 500}, button=3, sb=5, bb=10), "3 c, 1 c, 2 x, board AhKd2c, 1 r 20")
    h.apply(ChipsPlaced(2, 60, declared=A.CALL))
    assert h.state.current_bet == 20
    assert ExcessReturned(2, 40, "BET-VERBAL") in h.outcomes
    h.apply(ChipsPlaced(3, 25, declared=A.RAISE, declared_amount=80))
    assert h.state.current_bet == 80  # a stated amount is binding: the seat adds the rest


def test_BET_VERBAL_binding_short_call_is_completed_and_the_next_player_acts() -> None:
    """000 §3: "A player who declares a call ... must do so to the limit that the chips allow."
    Seat 2 says "call" and pushes 5 of the 20 with 495 behind: the call stands, 15 are owed,
    and seat 3 is next (not refused as out of turn)."""
    h = play(start({1: 500, 2: 500, 3: 500}, button=3, sb=5, bb=10), "3 c, 1 c, 2 x, board AhKd2c, 1 r 20")
    h.apply(ChipsPlaced(2, 5, declared=A.CALL))
    st = h.state
    assert ChipsOwed(2, 15, "BET-VERBAL") in h.outcomes
    assert st.bets[st.index_of[2]] == 20 and st.stacks[st.index_of[2]] == 470 and st.seat_to_act == 3
    play(h, "3 c")  # the next player is in turn
    assert h.state.phase.value == "dealing" and h.state.pot_total() == 90


def test_BET_VERBAL_binding_short_call_to_the_limit_the_chips_allow() -> None:
    # Seat 2 has 12 behind, says "call" (20) and pushes 5: the call is all-in for 12; 7 more are owed.
    h = play(start({1: 500, 2: 22, 3: 500}, button=3, sb=5, bb=10), "3 c, 1 c, 2 x, board AhKd2c, 1 r 20")
    h.apply(ChipsPlaced(2, 5, declared=A.CALL))
    st = h.state
    assert ChipsOwed(2, 7, "BET-VERBAL") in h.outcomes and st.stacks[st.index_of[2]] == 0
    assert st.bets[st.index_of[2]] == 12 and st.seat_to_act == 3


def test_BET_VERBAL_stated_raise_with_too_few_chips_is_owed() -> None:
    h = play(start({1: 500, 2: 500, 3: 500}, button=3, sb=5, bb=10), "3 c, 1 c, 2 x, board AhKd2c, 1 r 20")
    h.apply(ChipsPlaced(2, 25, declared=A.RAISE, declared_amount=80))
    assert h.state.current_bet == 80 and ChipsOwed(2, 55, "BET-VERBAL") in h.outcomes


def test_BET_ALL_IN_silent_push_short_of_a_call_is_refused_with_the_remedy() -> None:
    h = play(start({1: 500, 2: 500, 3: 500}, button=3, sb=5, bb=10), "3 c, 1 c, 2 x, board AhKd2c, 1 r 20")
    refused(h, "2 chips 5", "BET-ALL-IN")
    with pytest.raises(RuleViolation) as err:
        h.apply(ChipsPlaced(2, 5))
    assert "declared call binds" in err.value.message and h.state.seat_to_act == 2


def test_BET_STRING_second_motion_is_dismissed_not_out_of_turn() -> None:
    """000 §6: "Any betting motions after the first motion will be dismissed." Seat 3 calls in one
    motion, then pushes 4 more: refused as a string bet (not as acting out of turn), nothing changes."""
    h = start(THREE, button=3, sb=1, bb=2)
    h.apply(ChipsPlaced(3, 2))  # one motion: a call
    before = h.state.to_dict()
    with pytest.raises(RuleViolation) as err:
        h.apply(ChipsPlaced(3, 4, second_motion=True))
    assert err.value.rule == "BET-STRING" and "dismissed" in err.value.message
    assert h.state.to_dict() == before and h.state.current_bet == 2 and h.state.seat_to_act == 1


def test_BET_STRING_raise_said_without_amount_takes_one_additional_motion() -> None:
    """000 §7: "by stating the word 'raise', a player protects his right to raise, but the raise must
    be made in one additional motion". "Raise" with the call's 20, then 40 more: a raise to 60."""
    h = play(start({1: 500, 2: 500, 3: 500}, button=3, sb=5, bb=10), "3 c, 1 c, 2 x, board AhKd2c, 1 r 20")
    h.apply(ChipsPlaced(2, 20, declared=A.RAISE))  # the first motion: a minimum raise (to 40) is owed at least
    assert h.state.current_bet == 40 and ChipsOwed(2, 20, "BET-VERBAL") in h.outcomes
    h.apply(ChipsPlaced(2, 40, second_motion=True))  # the one additional motion
    st = h.state
    assert st.current_bet == 60 and st.bets[st.index_of[2]] == 60 and st.seat_to_act == 3
    assert [o for o in h.outcomes if isinstance(o, BetPlaced)] == [BetPlaced(2, A.RAISE, 60, 60, False, True)]
    assert h.state.to_dict() == replay(h.entries).to_dict()  # the log replays to the same state
    raises = [a for a in hand_to_phh(h.entries).actions if isinstance(a, BetRaise)]
    assert [(r.player, r.amount) for r in raises] == [(1, 20), (2, 60)]  # one raise in the history
    with pytest.raises(RuleViolation) as err:  # no third motion
        h.apply(ChipsPlaced(2, 20, second_motion=True))
    assert err.value.rule == "BET-STRING"


def test_BET_STRING_limit_has_no_additional_motion() -> None:
    h = limit_hand(LIMIT4, "standard", button=4)
    h.apply(ChipsPlaced(3, 5, declared=A.RAISE))
    with pytest.raises(RuleViolation) as err:
        h.apply(ChipsPlaced(3, 5, second_motion=True))
    assert err.value.rule == "BET-STRING"


def test_BET_STRING_second_motion_through_the_session_and_into_phh() -> None:
    session = TableSession(TableSetup.from_dict({"blinds": [5, 10], "seats": {"1": 500, "2": 500, "3": 500},
                                                 "button": 3}))
    with pytest.raises(RuleViolation) as err:
        session.feed(ChipsPushed(3, 10, second_motion=True))
    assert err.value.rule == "BET-STRING"
    session.feed(ChipsPushed(3, 10, declared=A.RAISE))
    session.feed(ChipsPushed(3, 20, second_motion=True))
    assert session.hand.current_bet == 30 and session.hand.seat_to_act == 1
    assert session.snapshot()["table"]["seats"]["3"]["last_action"] == {"action": "raise", "to": 30, "all_in": False}


def test_BET_OUT_OF_TURN_is_flagged_and_not_applied() -> None:
    h = start(THREE, button=3)
    state = h.state
    with pytest.raises(RuleViolation) as err:
        apply(state, ActionTaken(1, A.FOLD))
    assert err.value.rule == "BET-OUT-OF-TURN" and "seat 3 is to act" in str(err.value)
    assert h.state is state and not state.folded[state.index_of[1]] and state.seat_to_act == 3


# ---------------------------------------------------------------- all-in, incomplete, uncalled


def test_BET_ALL_IN_call_for_less_makes_a_side_pot() -> None:
    h = play(start({1: 100, 2: 100, 3: 30}, button=3), "3 c, 1 c, 2 x, board AhKd2c, 1 r 50, 2 c")
    la = legal_actions(h.state)
    assert la is not None and la.to_call == 28 and not la.can_raise
    play(h, "3 c")
    pots = h.state.pots()
    assert [p.amount for p in pots] == [90, 44]
    assert h.state.order[pots[1].eligible[0]] == 1 and len(pots[1].eligible) == 2


def test_BET_ALL_IN_short_raise_allowed_below_the_minimum() -> None:
    h = play(start({1: 100, 2: 100, 3: 15}, button=3), "3 c, 1 c, 2 x, board AhKd2c, 1 r 10")
    play(h, "2 c, 3 a")  # 13 is not a full raise over 10, but it is all-in
    assert h.state.current_bet == 13


def test_BET_INCOMPLETE_short_all_in_does_not_reopen_for_those_who_acted() -> None:
    h = play(start({1: 100, 2: 100, 3: 15}, button=3), "3 c, 1 c, 2 x, board AhKd2c, 1 r 10, 2 c, 3 a")
    la = legal_actions(h.state)
    assert la is not None and la.seat == 1 and la.to_call == 3 and not la.can_raise
    assert la.raise_closed_by == "BET-INCOMPLETE"
    refused(h, "1 r 40", "BET-INCOMPLETE")
    play(h, "1 c, 2 c")
    assert h.state.phase.value == "dealing"


def test_BET_INCOMPLETE_short_all_ins_adding_up_to_a_full_raise_reopen() -> None:
    h = play(
        start({1: 100, 2: 15, 3: 23, 4: 100}, button=4),
        "3 c, 4 c, 1 c, 2 x, board AhKd2c, 1 r 10, 2 a, 3 a, 4 c",
    )
    la = legal_actions(h.state)
    assert la is not None and la.seat == 1 and la.can_raise  # 21 - 10 = 11 >= a full raise of 10


def test_BET_INCOMPLETE_player_not_yet_acted_may_raise() -> None:
    h = play(start({1: 100, 2: 100, 3: 15, 4: 100}, button=4), "3 c, 4 c, 1 c, 2 x, board AhKd2c, 1 r 10, 2 c, 3 a")
    la = legal_actions(h.state)
    assert la is not None and la.seat == 4 and la.can_raise and la.min_to == 23


def test_BET_UNCALLED_bet_goes_back_to_its_owner() -> None:
    h = play(start(THREE, button=3), "3 r 50, 1 f")
    h.apply(ActionTaken(2, A.FOLD))
    assert UncalledBetReturned(3, 48) in h.outcomes
    assert h.state.final_stacks() == {1: 99, 2: 98, 3: 103}


def test_BET_UNCALLED_part_above_an_all_in_goes_back() -> None:
    h = play(start({1: 100, 2: 40}, button=1), "1 a, 2 c")
    assert UncalledBetReturned(1, 60) in h.outcomes
    assert h.state.pot_total() == 80


def test_BET_TABLE_STAKES_only_the_chips_on_the_table_play() -> None:
    h = start(THREE, button=3)
    refused(h, "3 r 150", "BET-TABLE-STAKES")
    with pytest.raises(RuleViolation) as err:
        h.apply(ChipsPlaced(3, 150))
    assert err.value.rule == "BET-TABLE-STAKES"
    assert chips_in_play(h) == 300


# ---------------------------------------------------------------- clock and rake (profiles differ)


@pytest.mark.parametrize(
    ("profile", "seconds", "countdown"), [("standard", 60, 10), ("roberts", 60, 10), ("house-pig", 30, 0), ("online", 10, 20)]
)
def test_BET_CLOCK_time_to_act_by_profile(profile: str, seconds: int, countdown: int) -> None:
    p = get_profile(profile)
    assert (p.clock_seconds, p.clock_countdown_seconds) == (seconds, countdown)


def test_BET_CLOCK_expired_clock_kills_the_hand_and_passes_the_turn() -> None:
    h = start(THREE, button=3)
    h.apply(HandKilled(3, "BET-CLOCK"))
    assert h.state.folded[h.state.index_of[3]] and h.state.seat_to_act == 1


def test_BET_RAKE_online_takes_five_percent_capped_after_a_flop() -> None:
    h = play(
        start({1: 100, 2: 100}, button=1, profile="online"),
        "hole 1 AhAd, hole 2 KhKd, 1 c, 2 x, board 2c7d9s, 2 r 40, 1 c, board 3h, 2 x, 1 x, board 4s, 2 x, 1 x, show 2, show 1",
    )
    assert h.state.rake == 3  # 5 % of 84 is 4, capped at 3
    assert h.state.final_stacks() == {1: 139, 2: 58}
    assert chips_in_play(h) == 200


def test_BET_RAKE_online_rakes_a_pot_won_without_a_showdown() -> None:
    """004: the 5 % rake capped at 3 is taken "for all the four rounds of betting": a pot won
    when everyone folds pays it as a showdown pot does."""
    h = play(
        start({1: 1000, 2: 1000}, button=1, profile="online"),
        "1 c, 2 x, board 2c7d9s, 2 r 40, 1 c, board 3h, 2 r 100, 1 f",
    )
    assert h.state.rake == 3  # 5 % of 84 is 4, capped at 3
    assert h.state.awards[0].rake == 3 and h.state.awards[0].shares == ((2, 81),)
    assert h.state.final_stacks() == {1: 958, 2: 1039}
    assert chips_in_play(h) == 2000


def test_BET_RAKE_online_rakes_a_pot_won_before_the_flop() -> None:
    script = "3 r 60, 1 c, 2 r 200, 3 f, 1 f"  # 180 in the pot once the uncalled 140 is back
    h = play(start({1: 1000, 2: 1000, 3: 1000}, button=3, sb=10, bb=20, profile="online"), script)
    assert h.state.rake == 3 and h.state.final_stacks() == {1: 940, 2: 1117, 3: 940}
    prof = profile_from_mapping("online", {"rake_no_flop_no_drop": True})  # the house option
    h = play(start({1: 1000, 2: 1000, 3: 1000}, button=3, sb=10, bb=20, profile=prof), script)
    assert h.state.rake == 0 and h.state.final_stacks() == {1: 940, 2: 1120, 3: 940}


def test_BET_RAKE_none_in_standard() -> None:
    h = play(
        start({1: 100, 2: 100}, button=1),
        "hole 1 AhAd, hole 2 KhKd, 1 c, 2 x, board 2c7d9s, 2 x, 1 x, board 3h, 2 x, 1 x, board 4s, 2 x, 1 x, show 2, show 1",
    )
    assert h.state.rake == 0 and h.state.final_stacks() == {1: 102, 2: 98}


def test_BET_TABLE_STAKES_setup_refuses_a_seat_without_chips() -> None:
    from dealer_pi.engine.errors import InputError

    with pytest.raises(InputError) as err:
        HandSetup((SeatSetup(1, 100), SeatSetup(2, 0)), button=1)
    assert "seats[1].stack" in str(err.value)
    assert blinds_setup({1: 5, 2: 5}, 1, 1, 2).seats[0].stack == 5


def test_BET_ORDER_straddle_acts_last_preflop_and_keeps_the_option() -> None:
    h = start({1: 100, 2: 100, 3: 100, 4: 100}, button=4, straddles=(4,))
    assert h.state.seat_to_act == 4 and h.state.current_bet == 4
    la = legal_actions(h.state)
    assert la is not None and la.min_to == 8  # the straddle counts as the big blind it doubles
    play(h, "4 c, 1 c, 2 c")
    la = legal_actions(h.state)
    assert la is not None and la.seat == 3 and la.can_check and la.can_raise


def test_BET_VERBAL_binding_short_call_through_the_session() -> None:
    """End to end: the dealer enters "call" with too few chips; the table says what is owed
    (``chips_owed``) and takes the next player's action in turn."""
    session = TableSession(TableSetup.from_dict({"blinds": [5, 10], "seats": {"1": 500, "2": 500, "3": 500},
                                                 "button": 3}))
    events = [event_to_json(e) for e in session.feed(ChipsPushed(3, 2, declared=A.CALL))]
    assert {"type": "chips_owed", "seat": 3, "amount": 8, "rule": "BET-VERBAL"} in events
    session.feed(PlayerAction(1, A.CALL))
    assert session.hand.seat_to_act == 2
