"""One test (at least) per POT-* rule, per profile where the profiles differ."""

from __future__ import annotations

import pytest
from handkit import chips_in_play, play, start

from dealer_pi.engine.cards import parse_cards
from dealer_pi.engine.errors import InputError, RuleViolation
from dealer_pi.engine.events import (
    HandKilled,
    HandShown,
    HoleCardsDealt,
    PotAwarded,
    StreetCompleted,
    WinnersDeclared,
)
from dealer_pi.engine.hand import Hand
from dealer_pi.engine.observations import KillReason
from dealer_pi.engine.profiles import profile_from_mapping
from dealer_pi.engine.showdown import next_to_show, show_order

RUNOUT = "board 2c7d9s, board 3h, board 4s"


def awards(h: Hand) -> list[tuple[int, int, tuple[tuple[int, int], ...]]]:
    return [(a.pot, a.amount, a.shares) for a in h.state.awards]


def test_POT_SIDE_each_all_in_caps_a_pot_and_pots_are_paid_separately() -> None:
    h = play(
        start({1: 50, 2: 100, 3: 200}, button=3),
        "hole 1 AhAd, hole 2 KhKd, hole 3 QhQd, 3 r 200, 1 a, 2 a",
    )
    assert [(p.amount, [h.state.order[i] for i in p.eligible]) for p in h.state.pots()] == [
        (150, [1, 2, 3]),
        (100, [2, 3]),
    ]
    play(h, f"show 1, show 2, show 3, {RUNOUT}")
    # The best hand takes only the main pot; the side pot goes to the best hand among its players.
    assert awards(h) == [(0, 150, ((1, 150),)), (1, 100, ((2, 100),))]
    assert h.state.final_stacks() == {1: 150, 2: 100, 3: 100}


def test_POT_SIDE_a_player_wins_at_most_what_he_matched_from_each() -> None:
    h = play(
        start({1: 30, 2: 100, 3: 100}, button=3),
        "hole 1 AhAd, hole 2 KhKd, hole 3 QhQd, 3 c, 1 a, 2 c, 3 c, board 2c7d9s, 2 r 50, 3 c, board 3h, 2 x, 3 x,"
        " board 4s, 2 x, 3 x, show 2, show 3, show 1",
    )
    assert awards(h) == [(0, 90, ((1, 90),)), (1, 100, ((2, 100),))]
    assert chips_in_play(h) == 230


def test_POT_BEST_FIVE_playing_the_board_splits() -> None:
    h = play(
        start({1: 100, 2: 100}, button=1),
        "hole 1 2h3d, hole 2 4h5d, 1 c, 2 x, board AsKsQs, 2 x, 1 x, board Js, 2 x, 1 x, board Ts, 2 x, 1 x,"
        " show 2, show 1",
    )
    assert h.state.final_stacks() == {1: 100, 2: 100}
    assert "Royal" in h.state.awards[0].description or "Straight flush" in h.state.awards[0].description


def test_POT_BEST_FIVE_kicker_decides() -> None:
    h = play(
        start({1: 100, 2: 100}, button=1),
        "hole 1 AhQd, hole 2 AdJc, 1 c, 2 x, board As8c5h, 2 x, 1 x, board 3d, 2 x, 1 x, board 2s, 2 x, 1 x,"
        " show 2, show 1",
    )
    assert h.state.final_stacks() == {1: 102, 2: 98}


SPLIT = "3 c, 1 f, 2 x, board AsKsQs, 2 x, 3 x, board Js, 2 x, 3 x, board Ts, 2 x, 3 x, show 2, show 3"


def test_POT_ODD_CHIP_goes_to_the_winner_first_left_of_the_button() -> None:
    h = play(start({1: 100, 2: 100, 3: 100}, button=3), "hole 2 2h3d, hole 3 4h5d, " + SPLIT)
    assert awards(h) == [(0, 5, ((2, 3), (3, 2)))]
    assert h.state.final_stacks() == {1: 99, 2: 101, 3: 100}


def test_POT_ODD_CHIP_high_card_by_suit_option() -> None:
    prof = profile_from_mapping("standard", {"odd_chip": "high-card-by-suit"})
    h = play(start({1: 100, 2: 100, 3: 100}, button=3, profile=prof), "hole 2 2h3d, hole 3 4h5d, " + SPLIT)
    assert awards(h) == [(0, 5, ((3, 3), (2, 2)))]


# Seat 1 is all-in and live; seat 2 bets the turn, seat 3 calls; the river is checked.
SHOW_A = "3 c, 1 a, 2 c, 3 c, board 2c7d9s, 2 x, 3 x, board 3h, 2 r 10, 3 c, board 4s, 2 x, 3 x"
# Seat 3 bets the turn, seat 2 calls; the river is checked.
SHOW_B = "3 c, 1 a, 2 c, 3 c, board 2c7d9s, 2 x, 3 x, board 3h, 2 x, 3 r 10, 2 c, board 4s, 2 x, 3 x"


@pytest.mark.parametrize(
    ("profile", "script", "first"),
    [
        ("standard", SHOW_A, 1),  # 000 §41: left of the last to call (seat 3 called last)
        ("roberts", SHOW_A, 1),
        ("online", SHOW_A, 2),  # 003: the last bettor shows first
        ("house-pig", SHOW_A, 2),  # 002 §12.2: nobody bet the river: the first to act
        ("standard", SHOW_B, 3),
        ("online", SHOW_B, 3),
        ("house-pig", SHOW_B, 2),
    ],
)
def test_POT_SHOW_ORDER_by_profile(profile: str, script: str, first: int) -> None:
    h = play(start({1: 20, 2: 100, 3: 100}, button=3, profile=profile), script)
    assert next_to_show(h.state) == first
    order = [h.state.order[i] for i in show_order(h.state)]
    assert order[0] == first and sorted(order) == [1, 2, 3]


def test_POT_ALL_IN_SHOW_all_in_hands_turn_up_before_the_runout_and_cannot_muck() -> None:
    h = play(start({1: 50, 2: 50}, button=1), "hole 1 AhAd, hole 2 KhKd, 1 a, 2 c, show 1, show 2")
    assert h.state.shown[h.state.index_of[1]] is not None
    play(h, RUNOUT)
    assert h.state.final_stacks() == {1: 100, 2: 0}
    h2 = play(
        start({1: 30, 2: 100, 3: 100}, button=3),
        "3 c, 1 a, 2 c, 3 c, board 2c7d9s, 2 x, 3 x, board 3h, 2 x, 3 x, board 4s, 2 x, 3 x",
    )
    with pytest.raises(RuleViolation) as err:
        play(h2, "muck 1")
    assert err.value.rule == "POT-ALL-IN-SHOW"


def test_POT_CARDS_SPEAK_the_cards_decide_and_a_tabled_hand_stays() -> None:
    h = play(
        start({1: 100, 2: 100}, button=1),
        "hole 1 7h7d, hole 2 AhKd, 1 c, 2 x, board 7s2c9d, 2 x, 1 x, board Kc, 2 x, 1 x, board 3s, 2 x, 1 x, show 2",
    )
    with pytest.raises(RuleViolation) as err:
        play(h, "muck 2")
    assert err.value.rule == "POT-CARDS-SPEAK"
    play(h, "show 1")
    assert h.state.final_stacks() == {1: 102, 2: 98}
    assert h.state.awards[0].description.startswith("Three of a kind")


def test_POT_CARDS_SPEAK_shown_cards_must_be_the_dealt_cards() -> None:
    h = play(start({1: 100, 2: 100}, button=1), "hole 1 7h7d, hole 2 AhKd, 1 a, 2 c")
    with pytest.raises(InputError):
        play(h, "show 1 7h8d")


def test_POT_SHOW_BOTH_unread_cards_must_be_entered_or_the_winner_declared() -> None:
    h = start({1: 100, 2: 100}, button=1)
    h.apply(HoleCardsDealt(1, (None, None))).apply(HoleCardsDealt(2, (None, None)))
    play(h, "1 c, 2 x, board 7s2c9d, 2 x, 1 x, board Kc, 2 x, 1 x, board 3s, 2 x, 1 x")
    with pytest.raises(RuleViolation) as err:
        h.apply(HandShown(2))
    assert err.value.rule == "POT-SHOW-BOTH"
    h.apply(HandShown(2, tuple(parse_cards("AhKd"))))
    h.apply(WinnersDeclared(0, (1,)))
    assert h.state.final_stacks() == {1: 102, 2: 98}
    assert h.state.awards[0].description == "declared by the dealer"


def test_POT_MUCK_a_beaten_hand_mucks_and_the_last_player_need_not_show() -> None:
    h = play(
        start({1: 100, 2: 100, 3: 100}, button=3),
        "hole 1 AhAd, hole 2 KhKd, 3 f, 1 c, 2 x, board 7s2c9d, 1 x, 2 x, board Kc, 1 x, 2 x, board 3s, 1 x, 2 x,"
        " show 1",
    )
    with pytest.raises(RuleViolation) as err:
        play(h, "muck 1")
    assert err.value.rule == "POT-CARDS-SPEAK"
    play(h, "muck 2")  # KKK would have won: a mucked hand is dead, the shown hand takes the pot
    assert h.state.final_stacks() == {1: 102, 2: 98, 3: 100}


def test_POT_MUCK_everyone_folds_to_one_player_who_wins_unshown() -> None:
    h = play(start({1: 100, 2: 100, 3: 100}, button=3), "3 r 6, 1 f, 2 f")
    assert h.state.is_complete and h.state.shown == [None, None, None]
    assert [type(o) for o in h.outcomes][-2:] == [PotAwarded, type(h.outcomes[-1])]


def test_POT_RIGHT_each_round_closes_with_everyone_level() -> None:
    h = play(start({1: 100, 2: 100, 3: 100}, button=3), "3 r 6, 1 c")
    with pytest.raises(RuleViolation) as err:
        play(h, "board 2c7d9s")
    assert err.value.rule == "DEAL-ORDER"
    play(h, "2 c")
    done = [o for o in h.outcomes if isinstance(o, StreetCompleted)]
    assert done == [StreetCompleted("preflop", ((18, (1, 2, 3)),))]


def test_DEAL_PLAYER_EXPOSED_deliberate_show_kills_and_costs_half_the_pot_house_pig() -> None:
    # 002 §6.8: the hand is dead and the player pays half the current pot into it.
    h = play(start({1: 100, 2: 100, 3: 100}, button=3, profile="house-pig"), "3 r 6, 1 c, 2 c")
    h.apply(HandKilled(1, "DEAL-PLAYER-EXPOSED", KillReason.DELIBERATE_SHOW))
    st = h.state
    assert st.folded[st.index_of[1]]
    assert st.stacks[st.index_of[1]] == 94 - 9 and st.pot_total() == 18 + 9
    play(h, "board 2c7d9s, 2 x, 3 r 10, 2 f")
    assert h.state.final_stacks()[3] == 100 + 12 + 9
    assert chips_in_play(h) == 300


@pytest.mark.parametrize("profile", ["standard", "roberts", "online"])
def test_DEAL_PLAYER_EXPOSED_deliberate_show_does_not_kill_where_000_rules(profile: str) -> None:
    # 000 §40: "A player who exposes his cards during the play may incur a penalty, but will not
    # have his hand killed": the kill is refused, naming the rule, and the hand plays on.
    h = play(start({1: 100, 2: 100, 3: 100}, button=3, profile=profile), "3 r 6, 1 c, 2 c")
    with pytest.raises(RuleViolation) as err:
        h.apply(HandKilled(1, "DEAL-PLAYER-EXPOSED", KillReason.DELIBERATE_SHOW))
    assert err.value.rule == "DEAL-PLAYER-EXPOSED" and "000 §40" in err.value.message
    assert not h.state.folded[h.state.index_of[1]]


ODD_CHIPS_SCRIPT = (
    "hole 1 2h3d, hole 2 4h5d, hole 3 6h7d, hole 4 8h9d, 3 c, 4 c, 1 c, 2 x, board AsKsQs, 1 r 2, 2 c, 3 c, 4 f,"
    " board Js, 1 x, 2 x, 3 x, board Ts, 1 x, 2 x, 3 x, show 1, show 2, show 3"
)


@pytest.mark.parametrize("profile", ["standard", "roberts", "house-pig"])
def test_POT_ODD_CHIP_every_odd_chip_to_the_worst_position_in_every_profile(profile: str) -> None:
    """000 §13: "any odd chip(s) left over given out to the winning player with the worst position
    (left of the button being the worst)"; 002 §1.2.3 and 004 agree. 14 chips three ways: 6/4/4."""
    h = play(start({1: 100, 2: 100, 3: 100, 4: 100}, button=4, profile=profile), ODD_CHIPS_SCRIPT)
    assert awards(h) == [(0, 14, ((1, 6), (2, 4), (3, 4)))]


def test_POT_ODD_CHIP_online_profile_after_its_rake() -> None:
    # 004: 5 % of 14 is 0 (whole chips), so the split is the same: both odd chips to seat 1.
    h = play(start({1: 100, 2: 100, 3: 100, 4: 100}, button=4, profile="online"), ODD_CHIPS_SCRIPT)
    assert awards(h) == [(0, 14, ((1, 6), (2, 4), (3, 4)))]


def test_POT_ODD_CHIP_one_each_from_the_left_is_a_named_option() -> None:
    prof = profile_from_mapping("standard", {"odd_chip": "one-each-from-left"})
    h = play(start({1: 100, 2: 100, 3: 100, 4: 100}, button=4, profile=prof), ODD_CHIPS_SCRIPT)
    assert awards(h) == [(0, 14, ((1, 5), (2, 5), (3, 4)))]  # as even as possible, from the left of the button


def test_POT_ODD_CHIP_old_option_names_still_read() -> None:
    """Journals and profile files written before the rename still load, meaning what they meant."""
    assert profile_from_mapping("standard", {"odd_chip": "left-of-button"}).odd_chip == "one-each-from-left"
    assert profile_from_mapping("standard", {"odd_chip": "all-to-first-left"}).odd_chip == "worst-position"
