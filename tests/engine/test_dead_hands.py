"""POT-DEAD-HAND: a hand killed mid-hand, for each reason the seeds give (000 §29-35, 002 §6.8)."""

from __future__ import annotations

import pytest
from handkit import chips_in_play, play, start

from dealer_pi.engine.errors import InputError, RuleViolation
from dealer_pi.engine.events import BetPlaced, HandKilled, UncalledBetReturned, event_from_dict, event_to_dict
from dealer_pi.engine.hand import replay
from dealer_pi.engine.legal import legal_actions
from dealer_pi.engine.observations import (
    KILL_RULES,
    ActionKind,
    KillHand,
    KillReason,
    PlayerAction,
    observation_from_dict,
    observation_to_dict,
)
from dealer_pi.engine.phh import parse_phh, to_phh
from dealer_pi.engine.phh_replay import hand_to_phh, replay_history
from dealer_pi.engine.table_session import TableSession, TableSetup, event_to_json

THREE = {1: 100, 2: 100, 3: 100}
REASONS = [r for r in KillReason if r is not KillReason.DELIBERATE_SHOW]  # that one kills in house-pig only


def killed(reason: KillReason, seat: int) -> HandKilled:
    return HandKilled(seat, KILL_RULES[reason], reason)


@pytest.mark.parametrize("reason", REASONS, ids=lambda r: r.value)
def test_POT_DEAD_HAND_uncalled_raise_goes_back_and_nobody_calls_it(reason: KillReason) -> None:
    """000 §33: "if a player raised and his raise had not been called yet, he would be entitled to
    receive his raise back". Seat 3 raises to 10 and his hand dies before anyone answers: 8 come
    back, his 2 (the big blind he called) stay, and seat 1 faces the big blind again."""
    h = play(start(THREE, button=3), "3 r 10")
    h.apply(killed(reason, 3))
    st = h.state
    assert UncalledBetReturned(3, 8, "POT-DEAD-HAND") in h.outcomes
    assert BetPlaced(3, ActionKind.FOLD, 2, 0, False) in h.outcomes
    assert st.stacks[st.index_of[3]] == 98 and st.pot_total() == 5 and st.current_bet == 2
    la = legal_actions(st)
    assert la is not None and (la.seat, la.to_call, la.min_to) == (1, 1, 4)  # the raise is gone, min raise 2 again
    play(h, "1 c, 2 x")
    assert h.state.phase.value == "dealing" and chips_in_play(h) == 300


def test_POT_DEAD_HAND_called_raise_stays_and_must_still_be_called() -> None:
    # Seat 1 called the raise: it was called, so nothing comes back and seat 2 still faces 10.
    h = play(start(THREE, button=3), "3 r 10, 1 c")
    h.apply(killed(KillReason.DEALER, 3))
    st = h.state
    assert not [o for o in h.outcomes if isinstance(o, UncalledBetReturned)]
    assert st.stacks[st.index_of[3]] == 90 and st.current_bet == 10 and st.seat_to_act == 2


def test_POT_DEAD_HAND_raise_partly_called_all_in_gives_back_the_rest() -> None:
    # Seat 2 calls all-in for 20 of seat 1's 50: 30 of the raise were never called.
    h = play(start({1: 200, 2: 22, 3: 200}, button=3), "3 c, 1 c, 2 x, board 2c7d9s, 1 r 50, 2 c")
    h.apply(killed(KillReason.MUCK, 1))
    st = h.state
    assert UncalledBetReturned(1, 30, "POT-DEAD-HAND") in h.outcomes
    assert st.bets[st.index_of[1]] == 20 and st.current_bet == 20 and st.seat_to_act == 3


def test_POT_DEAD_HAND_players_who_acted_before_the_dead_raise_are_done() -> None:
    # Seat 1 bets 10, seat 2 calls, seat 3 raises to 40 and his hand is killed: the raise (30) comes
    # back, his call of 10 stays, and the round is level at 10 again and over.
    h = play(start({1: 200, 2: 200, 3: 200}, button=3), "3 c, 1 c, 2 x, board 2c7d9s, 1 r 10, 2 c, 3 r 40")
    h.apply(killed(KillReason.CLOCK, 3))
    st = h.state
    assert UncalledBetReturned(3, 30, "POT-DEAD-HAND") in h.outcomes
    assert st.phase.value == "dealing" and st.pot_total() == 36


def test_POT_DEAD_HAND_last_live_player_wins_at_once() -> None:
    # The button completes his small blind and raises to 6; his hand dies: the raise comes back,
    # the completed blind (2) stays, and the big blind wins it.
    h = play(start({1: 100, 2: 100}, button=1), "1 r 6")
    h.apply(killed(KillReason.DISCLOSURE, 1))
    assert h.state.is_complete and h.state.final_stacks() == {1: 98, 2: 102}


def test_POT_DEAD_HAND_a_tabled_winning_hand_cannot_be_killed() -> None:
    # 000 §34: "Dealers cannot kill a winning hand that was turned face up".
    h = play(start({1: 100, 2: 100, 3: 100}, button=3),
             "hole 1 AhAd, hole 2 KhKd, 3 f, 1 c, 2 x, board 2c7d9s, 1 x, 2 x, board 3h, 1 x, 2 x, board 4s,"
             " 1 x, 2 x, show 1")
    with pytest.raises(RuleViolation) as err:
        h.apply(killed(KillReason.DEALER, 1))
    assert err.value.rule == "POT-DEAD-HAND" and "000 §34" in err.value.message


def test_POT_DEAD_HAND_reason_and_rule_must_agree() -> None:
    h = start(THREE, button=3)
    with pytest.raises(InputError) as err:
        h.apply(HandKilled(3, "TABLE-AWAY", KillReason.CLOCK))
    assert err.value.where == "rule" and "BET-CLOCK" in err.value.message


def test_POT_DEAD_HAND_kill_replays_undoes_and_round_trips_through_json_and_phh() -> None:
    h = play(start(THREE, button=3), "3 r 10")
    h.apply(killed(KillReason.DEALER, 3))
    play(h, "1 f")
    assert h.state.is_complete and h.state.final_stacks() == {1: 99, 2: 103, 3: 98}
    assert replay(h.entries).to_dict() == h.state.to_dict()
    entry = h.entries[2]
    assert event_from_dict(event_to_dict(entry)) == entry
    text = to_phh(hand_to_phh(h.entries))
    assert "killed POT-DEAD-HAND dealer-kill" in text
    r = replay_history(parse_phh(text))
    assert r.matches is True and r.final_stacks == (99, 103, 98)


def test_POT_DEAD_HAND_kill_observation_through_the_session() -> None:
    """The dealer rules a hand dead from the tablet: a ``kill`` observation with its reason."""
    obs = observation_from_dict({"type": "kill", "seat": 3, "reason": "touched-muck"})
    assert obs == KillHand(3, KillReason.MUCK) and observation_from_dict(observation_to_dict(obs)) == obs
    session = TableSession(TableSetup.from_dict({"blinds": [1, 2], "seats": {"1": 100, "2": 100, "3": 100},
                                                 "button": 3}))
    session.feed(PlayerAction(3, ActionKind.RAISE, 10))
    events = [event_to_json(e) for e in session.feed(obs)]
    assert events[0] == {"type": "hand_killed", "seat": 3, "rule": "POT-MUCK", "reason": "touched-muck"}
    assert {"type": "uncalled_bet_returned", "seat": 3, "amount": 8, "rule": "POT-DEAD-HAND"} in events
    assert session.hand.seat_to_act == 1 and session.snapshot()["table"]["seats"]["3"]["folded"]
    session.undo()  # a dealer entry like any other
    assert not session.hand.folded[session.hand.index_of[3]] and session.hand.current_bet == 10
    with pytest.raises(InputError) as err:
        observation_from_dict({"type": "kill", "seat": 3, "reason": "bad-luck"}, "obs")
    assert err.value.where == "obs.reason"
