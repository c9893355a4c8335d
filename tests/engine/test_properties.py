"""Property tests: random hands under random profiles and structures, with random legal actions."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from dealer_pi.engine.cards import FULL_DECK
from dealer_pi.engine.errors import EngineError, RuleViolation
from dealer_pi.engine.events import (
    ActionTaken,
    BoardDealt,
    ChipsPlaced,
    Entry,
    HandKilled,
    HandMucked,
    HandShown,
    HoleCardsDealt,
)
from dealer_pi.engine.hand import Hand, apply_in_place, replay
from dealer_pi.engine.legal import legal_actions
from dealer_pi.engine.observations import KILL_RULES, KillReason
from dealer_pi.engine.observations import ActionKind as A
from dealer_pi.engine.profiles import PROFILES
from dealer_pi.engine.setup import Structure, blinds_setup
from dealer_pi.engine.state import HandState, Phase


def chips(state: HandState) -> int:
    return sum(state.stacks) + state.rake + (0 if state.is_complete else sum(state.total))


def check_invariants(state: HandState, start_chips: int) -> None:
    assert chips(state) == start_chips
    assert min(state.stacks) >= 0
    assert all(b >= 0 for b in state.bets) and all(t >= b for t, b in zip(state.total, state.bets))
    if state.phase is not Phase.BETTING:
        # POT-RIGHT: out of a betting round, every live player with chips has matched the others.
        assert not any(state.bets)


@st.composite
def hands(draw: st.DrawFn) -> Hand:
    n = draw(st.integers(2, 9))
    seats = sorted(draw(st.lists(st.integers(1, 10), min_size=n, max_size=n, unique=True)))
    bb = draw(st.sampled_from([2, 10, 100]))
    stacks = {s: draw(st.integers(1, 60 * bb)) for s in seats}
    structure = draw(st.sampled_from(list(Structure)))
    ante = draw(st.sampled_from([0, 0, bb // 2]))
    bb_ante = draw(st.sampled_from([0, 0, bb])) if not ante else 0
    profile = PROFILES[draw(st.sampled_from(sorted(PROFILES)))]
    button = draw(st.sampled_from(seats))
    setup = blinds_setup(stacks, button, bb // 2, bb, ante=ante, big_blind_ante=bb_ante, structure=structure)
    return Hand.start(setup, profile)


def play_out(hand: Hand, data: st.DataObject, start_chips: int, snapshots: list[dict[str, object]]) -> None:
    deck = list(data.draw(st.permutations(FULL_DECK)))
    known = data.draw(st.booleans())

    def step(e: Entry) -> None:
        hand.apply(e)
        check_invariants(hand.state, start_chips)
        snapshots.append(hand.state.to_dict(reveal_hole_cards=True))

    for seat in hand.state.order:
        cards = (deck.pop(), deck.pop())
        step(HoleCardsDealt(seat, cards if known else (None, None)))
    for _ in range(200):
        s = hand.state
        if s.phase is Phase.COMPLETE:
            return
        if s.phase is Phase.DEALING:
            step(BoardDealt(tuple(deck.pop() for _ in range(3 if s.street == 0 else 1))))
            continue
        if s.phase is Phase.SHOWDOWN:
            live = [i for i in range(len(s.order)) if not s.folded[i] and s.shown[i] is None]
            i = data.draw(st.sampled_from(live))
            seat = s.order[i]
            if s.stacks[i] > 0 and data.draw(st.booleans()):
                try:
                    step(HandMucked(seat))
                    continue
                except RuleViolation as err:
                    assert err.rule == "POT-MUCK"
            cards = s.hole[i] if known else (deck.pop(), deck.pop())
            step(HandShown(seat, tuple(c for c in cards if c is not None)))
            continue
        la = legal_actions(s)
        assert la is not None
        choice = data.draw(st.sampled_from(["fold", "check-call", "raise", "all-in", "chips", "kill"]))
        if choice == "fold":
            step(ActionTaken(la.seat, A.FOLD))
        elif choice == "check-call" or (choice == "raise" and not la.can_raise):
            step(ActionTaken(la.seat, A.CALL))
        elif choice == "raise":
            step(ActionTaken(la.seat, A.RAISE, data.draw(st.integers(la.min_to, la.max_to))))
        elif choice == "all-in":
            step(ActionTaken(la.seat, A.ALL_IN))
        elif choice == "chips":
            behind = s.stacks[s.to_act]
            amount = data.draw(st.integers(1, behind)) if behind else 1
            try:
                step(ChipsPlaced(la.seat, amount, single_chip=data.draw(st.booleans())))
            except RuleViolation as err:
                assert err.rule in ("BET-ALL-IN", "BET-UNDER-RAISE")
        else:
            seat = data.draw(st.sampled_from([s.order[i] for i in s.live()]))
            reason = data.draw(st.sampled_from(list(KillReason)))
            try:
                step(HandKilled(seat, KILL_RULES[reason], reason))
            except RuleViolation as err:  # 000 §40: only house-pig kills a hand for a card shown (002 §6.8)
                assert reason is KillReason.DELIBERATE_SHOW and err.rule == "DEAL-PLAYER-EXPOSED"
    raise AssertionError("the hand did not end")


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(hand=hands(), data=st.data())
def test_chips_conserved_no_negative_stack_every_pot_awarded(hand: Hand, data: st.DataObject) -> None:
    start_chips = sum(hand.state.starting)
    check_invariants(hand.state, start_chips)
    play_out(hand, data, start_chips, [])
    s = hand.state
    assert s.is_complete
    assert sum(a.amount for a in s.awards) == sum(s.total)  # every chip put in was paid out
    for a in s.awards:
        assert a.shares and sum(c for _, c in a.shares) + a.rake == a.amount


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(hand=hands(), data=st.data())
def test_replay_of_the_log_gives_the_same_state_and_undo_is_exact(hand: Hand, data: st.DataObject) -> None:
    start_chips = sum(hand.state.starting)
    snapshots = [hand.state.to_dict(reveal_hole_cards=True)]
    play_out(hand, data, start_chips, snapshots)
    assert replay(hand.entries).to_dict(reveal_hole_cards=True) == hand.state.to_dict(reveal_hole_cards=True)
    back = data.draw(st.integers(1, len(hand.entries) - 1))
    for _ in range(back):
        hand.undo()
    assert hand.state.to_dict(reveal_hole_cards=True) == snapshots[len(hand.entries) - 1]


@st.composite
def any_entry(draw: st.DrawFn, seats: list[int]) -> Entry:
    seat = draw(st.sampled_from(seats + [7]))
    kind = draw(st.sampled_from(["act", "chips", "board", "hole", "show", "muck", "kill"]))
    if kind == "act":
        action = draw(st.sampled_from([A.FOLD, A.CHECK, A.CALL, A.BET, A.RAISE, A.ALL_IN]))
        return ActionTaken(seat, action, draw(st.integers(0, 300)) if action in (A.BET, A.RAISE) else None)
    if kind == "chips":
        return ChipsPlaced(seat, draw(st.integers(1, 300)), single_chip=draw(st.booleans()))
    cards = draw(st.permutations(FULL_DECK))
    if kind == "board":
        return BoardDealt(tuple(cards[: draw(st.sampled_from([1, 3]))]))
    if kind == "hole":
        return HoleCardsDealt(seat, tuple(cards[:2]))
    if kind == "show":
        return HandShown(seat, tuple(cards[:2]) if draw(st.booleans()) else ())
    if kind == "muck":
        return HandMucked(seat)
    reason = draw(st.sampled_from(list(KillReason)))
    return HandKilled(seat, KILL_RULES[reason], reason)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(hand=hands(), data=st.data())
def test_a_refused_entry_changes_nothing_even_in_place(hand: Hand, data: st.DataObject) -> None:
    """Every check runs before any change: apply (copying) and apply_in_place agree, and a
    refusal leaves the state exactly as it was."""
    owned = replay(hand.entries)
    seats = list(hand.state.order)
    for _ in range(40):
        if hand.state.is_complete:
            break
        e = data.draw(any_entry(seats))
        before = hand.state.to_dict(reveal_hole_cards=True)
        try:
            hand.apply(e)
        except EngineError:
            assert hand.state.to_dict(reveal_hole_cards=True) == before
            with pytest.raises(EngineError):
                apply_in_place(owned, e)
        else:
            apply_in_place(owned, e)
        assert owned.to_dict(reveal_hole_cards=True) == hand.state.to_dict(reveal_hole_cards=True)


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(hands())
def test_every_field_is_set_at_the_start_and_copied_without_sharing(hand: Hand) -> None:
    """HandState's fields are declared once (its annotations): start_hand sets each one, and
    copy() gives an equal state whose lists and dicts are its own (undo relies on both)."""
    state = hand.state
    names = HandState.__slots__
    assert set(names) == set(HandState.__annotations__)
    missing = [n for n in names if not hasattr(state, n)]
    assert not missing, f"start_hand leaves {missing} unset"
    twin = state.copy()
    for name in names:
        mine, theirs = getattr(state, name), getattr(twin, name)
        assert mine == theirs, name
        if isinstance(mine, (list, dict)):
            assert mine is not theirs, f"copy() shares {name}"
