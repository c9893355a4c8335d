"""The tournament rules of the room (seed 000 §45-62, 002 §2-3), each under its catalogue ID."""

from __future__ import annotations

import pytest

from dealer_pi.engine.cards import Card
from dealer_pi.engine.errors import InputError, RuleViolation
from dealer_pi.engine.table_session import TableSession, TableSetup
from dealer_pi.engine.tournament.balance import (
    TableSeats, blind_distance, plan_moves, sits_out, worst_open_seats,
)
from dealer_pi.engine.tournament.chip_race import chip_race
from dealer_pi.engine.tournament.hand_for_hand import Progress, may_start, round_complete, still_playing
from dealer_pi.engine.tournament.orders import (
    ChipRace, MoveIn, MoveOut, PenaltyOrder, Rebuy, SeatDraw, order_from_dict, order_to_dict,
)
from dealer_pi.engine.tournament.payout import Entries, Fees, PayoutStructure, prize_pool, split
from dealer_pi.engine.tournament.penalties import check_penalty
from dealer_pi.engine.tournament.rebuys import RebuyRules, Standing, chips_for
from dealer_pi.engine.tournament.reseat import StartedHand, reseat
from dealer_pi.engine.tournament.seating import check_name, draw_buttons, draw_seats

# ------------------------------------------------------------------ TABLE-PAYOUT


def test_TABLE_PAYOUT_seed_002_structure_is_refused_with_its_sum() -> None:
    with pytest.raises(RuleViolation) as err:
        PayoutStructure.parse([60, 30, 20])
    assert err.value.rule == "TABLE-PAYOUT"
    assert "110 %" in err.value.message and "not 100 %" in err.value.message
    assert "1st 60 %" in err.value.message and "3rd 20 %" in err.value.message


def test_TABLE_PAYOUT_shares_must_not_rise_down_the_places() -> None:
    with pytest.raises(RuleViolation, match="2nd place"):
        PayoutStructure.parse([40, 45, 15])
    with pytest.raises(InputError, match=r"payouts\[1\]"):
        PayoutStructure.parse([50, "30", 20])
    assert PayoutStructure.parse([62.5, 25, 12.5]).basis_points == (6250, 2500, 1250)


def test_TABLE_PAYOUT_rounding_favours_the_higher_places() -> None:
    structure = PayoutStructure.parse([50, 30, 20])
    # 997 split 498.5 / 299.1 / 199.4: rounding down leaves 1 that goes to 1st.
    assert split(997, structure) == (499, 299, 199)
    # In whole 5s: 500/300/200 of 1003 leaves 3 below a unit, the winner keeps it.
    assert split(1003, structure, unit=5) == (503, 300, 200)
    # Thirds: the leftover units go 1st, then 2nd.
    thirds = PayoutStructure.parse([33.34, 33.33, 33.33])
    assert split(1000, thirds, unit=10) == (340, 330, 330)
    for pool in range(0, 3000, 7):
        prizes = split(pool, structure, unit=5)
        assert sum(prizes) == pool
        assert list(prizes) == sorted(prizes, reverse=True)


def test_TABLE_PAYOUT_prize_pool_counts_buy_ins_rebuys_buy_backs_and_add_ons() -> None:
    fees = Fees(buy_in=2000, rebuy=2000, add_on=1000, buy_back=700)
    assert prize_pool(Entries(buy_ins=40, rebuys=6, add_ons=12), fees, buy_backs=1) == 80_000 + 12_000 + 12_000 + 700
    assert prize_pool(Entries(buy_ins=10), Fees(buy_in=1000, rake_percent=10)) == 9000

# ------------------------------------------------------------------ TABLE-REBUY


def test_TABLE_REBUY_rebuy_period_add_on_and_buy_back() -> None:
    rules = RebuyRules(starting_stack=3000, rebuy_chips=3000, rebuy_until_level=3, add_on_chips=5000, add_on_level=3,
                       buy_back=True)
    assert chips_for("rebuy", rules, Standing(busted=True), level=3) == 3000
    with pytest.raises(RuleViolation, match="rebuys ended with level 3"):
        chips_for("rebuy", rules, Standing(busted=True), level=4)
    assert chips_for("add-on", rules, Standing(), level=4) == 5000  # the break after level 3
    with pytest.raises(RuleViolation, match="one add-on"):
        chips_for("add-on", rules, Standing(add_ons=1), level=3)
    # 002 §2.2: the first player out buys back for a third of a starting stack, once.
    assert chips_for("buy-back", rules, Standing(busted=True, first_out=True), level=9) == 1000
    with pytest.raises(RuleViolation, match="first player out"):
        chips_for("buy-back", rules, Standing(busted=True, first_out=False), level=2)
    with pytest.raises(RuleViolation, match="once"):
        chips_for("buy-back", rules, Standing(busted=True, first_out=True, buy_backs=1), level=2)


def test_TABLE_REBUY_a_player_who_missed_a_hand_without_chips_is_out() -> None:
    rules = RebuyRules(starting_stack=3000, rebuy_chips=3000, rebuy_until_level=6)
    with pytest.raises(RuleViolation, match="000 §58") as err:
        chips_for("rebuy", rules, Standing(busted=True, missed_hand=True), level=1)
    assert err.value.rule == "TABLE-REBUY"


def test_TABLE_REBUY_chips_join_between_hands_only() -> None:
    """The table adds bought chips to the stack the next hand is dealt with, never to the hand in play."""
    hand = StartedHand(button=1, small_blind_seat=2, seats={1: ("Ana", 500), 2: ("Ben", 700), 3: ("Cy", 900)})
    r = reseat(hand, [Rebuy("r1", "Ben", 2, 3000, "rebuy"), Rebuy("r2", "Dee", 5, 3000, "rebuy")], {}, now_ms=0)
    assert r.seats[2] == ("Ben", 3700)
    assert r.seats[5] == ("Dee", 3000)  # knocked out last hand, back in the same seat
    assert [d["id"] for d in r.done] == ["r1", "r2"]

# ------------------------------------------------------------------ registration and the draw


def test_seat_draw_is_random_even_and_repeatable() -> None:
    players = [f"P{i:02d}" for i in range(23)]
    tables = ["t1", "t2", "t3", "t4"]  # three tables of nine seat them: the fourth stays empty
    a = draw_seats(players, tables, seats_per_table=9, seed=99)
    assert a == draw_seats(players, tables, seats_per_table=9, seed=99)
    assert a != draw_seats(players, tables, seats_per_table=9, seed=100)
    counts = sorted(sum(1 for s in a.values() if s.table == t) for t in tables)
    assert counts == [0, 7, 8, 8]
    assert len({(s.table, s.seat) for s in a.values()}) == 23
    assert all(1 <= s.seat <= 9 for s in a.values())
    buttons = draw_buttons(a, seed=99)
    assert all(any(s.table == t and s.seat == b for s in a.values()) for t, b in buttons.items())


def test_seat_draw_refuses_more_players_than_seats_and_names_twice() -> None:
    with pytest.raises(RuleViolation):
        draw_seats([f"P{i}" for i in range(19)], ["t1", "t2"], seats_per_table=9, seed=1)
    assert check_name("  Ana   Lee ", ["Ben"]) == "Ana Lee"
    with pytest.raises(InputError, match="already registered"):
        check_name("ana lee", ["Ana Lee"])
    with pytest.raises(InputError, match="name"):
        check_name("", [])

# ------------------------------------------------------------------ TABLE-MOVE


def test_TABLE_MOVE_balance_moves_the_player_who_will_not_lose_position() -> None:
    # t1: 8 players, big blind on seat 4; t2: 6 players, big blind on 2, open seats 5 and 9.
    t1 = TableSeats("t1", {s: f"A{s}" for s in (1, 2, 3, 4, 5, 6, 7, 8)}, big_blind_seat=4, seats=9)
    t2 = TableSeats("t2", {s: f"B{s}" for s in (1, 2, 3, 4, 6, 7)}, big_blind_seat=2, seats=9)
    # Worst open seat at t2: 5, two players (3, 4) before it pays the big blind.
    assert worst_open_seats(t2) == [5, 8, 9]
    assert blind_distance(t2.occupied(), 2, 5) == 2
    plan = plan_moves([t1, t2])
    assert plan.broken is None
    (move,) = plan.moves
    # At t1 the player two hands from the big blind is on seat 7 (5 and 6 pay it first).
    assert (move.player, move.from_table, move.from_seat, move.to_table, move.to_seat) == ("A7", "t1", 7, "t2", 5)
    assert blind_distance(t1.occupied(), 4, 7) == 2


def test_TABLE_MOVE_nothing_moves_when_tables_are_within_one() -> None:
    t1 = TableSeats("t1", {s: f"A{s}" for s in range(1, 8)}, big_blind_seat=1)
    t2 = TableSeats("t2", {s: f"B{s}" for s in range(1, 7)}, big_blind_seat=1)
    assert plan_moves([t1, t2]).moves == ()
    # A move already ordered counts: t1 is losing A3, t2 gaining a seat.
    t1b = TableSeats("t1", {s: f"A{s}" for s in range(1, 10)}, big_blind_seat=1, leaving=frozenset({"A3"}))
    t2b = TableSeats("t2", {s: f"B{s}" for s in range(1, 7)}, big_blind_seat=1, reserved=frozenset({7}))
    assert plan_moves([t1b, t2b]).moves == ()


def test_TABLE_MOVE_a_table_breaks_when_the_others_can_seat_its_players() -> None:
    t1 = TableSeats("t1", {s: f"A{s}" for s in (1, 2, 3, 4, 5, 6, 7)}, big_blind_seat=2, seats=9)
    t2 = TableSeats("t2", {s: f"B{s}" for s in (1, 3, 5, 7, 9)}, big_blind_seat=3, seats=9)
    t3 = TableSeats("t3", {s: f"C{s}" for s in (2, 4, 6)}, big_blind_seat=4, seats=9)
    plan = plan_moves([t1, t2, t3])
    assert plan.broken == "t3"
    assert sorted(m.player for m in plan.moves) == ["C2", "C4", "C6"]
    assert {m.reason for m in plan.moves} == {"break"}
    # Each goes to the table that is shortest then: t2 (5), then t2 (6) or t1 (7)...
    dest = [m.to_table for m in plan.moves]
    assert dest.count("t2") == 2 and dest.count("t1") == 1
    # ...and into its worst open seat: at t2 the first one taken is the next big blind's place (4).
    first = plan.moves[0]
    assert (first.to_table, first.to_seat) == ("t2", 4)
    assert len({(m.to_table, m.to_seat) for m in plan.moves}) == 3


def test_TABLE_MOVE_moved_player_never_between_small_blind_and_button() -> None:
    assert sits_out(5, button=4, small_blind_seat=6)
    assert not sits_out(7, button=4, small_blind_seat=6)
    assert sits_out(10, button=9, small_blind_seat=2) and sits_out(1, button=9, small_blind_seat=2)
    hand = StartedHand(button=4, small_blind_seat=6, seats={2: ("Ben", 900), 4: ("Cy", 700), 6: ("Dee", 400), 8: ("Eve", 500)})
    r = reseat(hand, [MoveIn("m1", "Ana", 5, 1500, "t2")], {}, now_ms=0)
    assert 5 not in r.seats and r.waiting == ("m1",) and r.done == ()
    assert "sits out" in r.notes[0] and "TABLE-MOVE" in r.notes[0]
    # Next hand the button has moved to 6: seat 5 is behind it now, and Ana sits down.
    nxt = StartedHand(button=6, small_blind_seat=8, seats=r.seats)
    r2 = reseat(nxt, [MoveIn("m1", "Ana", 5, 1500, "t2")], {}, now_ms=0)
    assert r2.seats[5] == ("Ana", 1500) and r2.done[0]["kind"] == "move_in"


def test_TABLE_MOVE_move_out_takes_the_stack_along() -> None:
    hand = StartedHand(button=1, small_blind_seat=2, seats={1: ("Ana", 500), 2: ("Ben", 700), 3: ("Cy", 900)})
    r = reseat(hand, [MoveOut("m1", "Cy", 3, "t4", 6)], {}, now_ms=0)
    assert 3 not in r.seats
    assert r.done[0] == {"id": "m1", "kind": "move_out", "player": "Cy", "seat": 3, "stack": 900, "to_table": "t4",
                         "to_seat": 6}
    gone = reseat(hand, [MoveOut("m2", "Zed", 8, "t4", 6)], {}, now_ms=0)
    assert gone.done[0]["stack"] == 0 and "no longer at the table" in gone.notes[0]

# ------------------------------------------------------------------ TABLE-HAND-FOR-HAND


def test_TABLE_HAND_FOR_HAND_every_table_waits_for_the_others() -> None:
    # Called while t1 and t2 play: round 0 ends when both have finished that hand.
    tables = {"t1": Progress(True, 0), "t2": Progress(True, 0), "t3": Progress(False, 0)}
    assert still_playing(0, tables) == ["t1", "t2"]
    tables["t1"] = Progress(False, 0)
    assert not round_complete(0, tables)
    assert not may_start(True, 0, 0)  # t1 waits
    tables["t2"] = Progress(False, 0)
    assert round_complete(0, tables)
    # Round 1: each may deal exactly one hand.
    assert may_start(True, 1, 0) and not may_start(True, 1, 1)
    tables = {"t1": Progress(False, 1), "t2": Progress(True, 1), "t3": Progress(False, 0)}
    assert still_playing(1, tables) == ["t2", "t3"]  # t3 has not dealt its hand of the round yet
    assert may_start(False, 5, 9)

# ------------------------------------------------------------------ TABLE-CHIP-RACE


def test_TABLE_CHIP_RACE_odd_chips_raced_from_the_small_blind() -> None:
    stacks = {2: 1075, 4: 950, 6: 2000, 8: 1025}  # odd 75, 50, 0, 25 in 100s
    cards = [Card.parse(c) for c in ("9h", "Kd", "Ks")]  # seats 4, 8, 2 from the small blind on 4
    r = chip_race(stacks, order=[4, 6, 8, 2], remove=25, next_chip=100, cards=cards)
    assert r.odd == {4: 50, 8: 25, 2: 75}
    assert r.cards == ((4, "9h"), (8, "Kd"), (2, "Ks"))
    # 150 in the middle: one chip of 100, 50 removed (49b); the two kings tie, the first dealt wins (49c).
    assert (r.chips_out, r.removed, r.winners) == (1, 50, (8,))
    assert r.stacks == {2: 1000, 4: 900, 6: 2000, 8: 1100}


def test_TABLE_CHIP_RACE_chips_go_round_from_the_winner() -> None:
    stacks = {1: 75, 2: 75, 3: 75, 4: 75}  # 300 in the middle: three chips
    cards = [Card.parse(c) for c in ("2c", "Ah", "3d", "4s")]
    r = chip_race(stacks, order=[1, 2, 3, 4], remove=25, next_chip=100, cards=cards)
    assert r.winners == (2, 3, 4)  # from the winner (seat 2), clockwise (49d)
    # Seat 1 lost its only chips: nobody is raced out (000 §50).
    assert r.rescued == (1,) and r.stacks[1] == 100


def test_TABLE_CHIP_RACE_seeded_draw_is_repeatable_and_checked() -> None:
    with pytest.raises(InputError, match="multiple"):
        chip_race({1: 1000, 2: 1000}, [1, 2], remove=25, next_chip=110, seed=1)
    with pytest.raises(InputError, match="order"):
        chip_race({1: 1000, 2: 1000}, [1], remove=25, next_chip=100, seed=1)
    stacks = {1: 1050, 2: 975, 3: 1075}
    a = chip_race(stacks, [2, 3, 1], remove=25, next_chip=100, seed=7)
    assert a == chip_race(stacks, [2, 3, 1], remove=25, next_chip=100, seed=7)
    assert len({c for _, c in a.cards}) == 3
    with pytest.raises(InputError, match="cards"):
        chip_race(stacks, [2, 3, 1], remove=25, next_chip=100, cards=[Card.parse("Ah")])

# ------------------------------------------------------------------ TABLE-PENALTY


def test_TABLE_PENALTY_kinds_and_minutes_from_000_45() -> None:
    assert check_penalty({"kind": "warning", "reason": "soft play"}).describe() == "verbal warning (soft play)"
    for minutes in (10, 20, 30, 40):
        assert check_penalty({"kind": "away", "minutes": minutes}).minutes == minutes
    with pytest.raises(InputError, match="penalty.minutes"):
        check_penalty({"kind": "away", "minutes": 5})
    with pytest.raises(InputError, match="penalty.kind"):
        check_penalty({"kind": "fine"})


def test_TABLE_PENALTY_applied_between_hands() -> None:
    hand = StartedHand(button=1, small_blind_seat=2, seats={1: ("Ana", 500), 2: ("Ben", 700), 3: ("Cy", 900)})
    away = PenaltyOrder("p1", "Ben", 2, check_penalty({"kind": "away", "minutes": 10, "reason": "card off the table"}))
    dq = PenaltyOrder("p2", "Cy", 3, check_penalty({"kind": "disqualification", "reason": "abuse"}))
    r = reseat(hand, [away, dq], {}, now_ms=1_000)
    assert r.away == {2: 1_000 + 600_000}
    assert 3 not in r.seats and r.chips_removed == 900  # chips removed from play (000 §45)
    # Minutes away end by themselves, at the first hand after the time is up.
    later = reseat(StartedHand(1, 2, r.seats), [], r.away, now_ms=700_000)
    assert later.away == {} and later.changes(StartedHand(1, 2, r.seats), r.away)


def test_TABLE_PENALTY_minutes_away_kill_the_hand_and_take_the_blinds() -> None:
    """A seat marked away is dealt and killed; the player still posts (TABLE-AWAY, 000 §31)."""
    setup = TableSetup.from_dict({"blinds": [5, 10], "seats": {"1": 500, "2": 700, "3": 900}, "button": 1, "away": [2]})
    assert setup.to_dict()["away"] == [2]
    session = TableSession(setup)
    kinds = [(type(e).__name__, getattr(e, "seat", None)) for e in session.events]
    assert ("HandKilled", 2) in kinds and ("BlindPosted", 2) in kinds
    with pytest.raises(InputError, match="setup.away"):
        TableSetup.from_dict({"blinds": [5, 10], "seats": {"1": 500, "2": 700}, "button": 1, "away": [4]})

# ------------------------------------------------------------------ the floor's orders


def test_orders_read_back_and_bad_fields_are_named() -> None:
    orders = [
        SeatDraw("d1", {1: ("Ana", 3000), 4: ("Ben", 3000)}, 4), MoveOut("m1", "Ana", 1, "t2", 3),
        MoveIn("m1-in", "Ana", 3, 2900, "t1"), Rebuy("r1", "Ben", 4, 3000, "add-on"),
        PenaltyOrder("p1", "Ben", 4, check_penalty({"kind": "warning", "reason": "x"})), ChipRace("c1", 25, 100, 5),
    ]
    for o in orders:
        assert order_from_dict(order_to_dict(o)) == o
    with pytest.raises(InputError, match=r"order.seats.11"):
        order_from_dict({"id": "d", "kind": "seat_draw", "seats": {"11": {"name": "A", "stack": 1}, "1": {"name": "B", "stack": 1}}, "button": 1})
    for kind in ([], {}, ["deck_change"], None):  # a name that is not a string is named, never looked up
        with pytest.raises(InputError, match="order.kind"):
            order_from_dict({"id": "k", "kind": kind})
    with pytest.raises(InputError, match="order.id"):
        order_from_dict({"id": "a b", "kind": "deck_change", "reason": "level 3"})
    with pytest.raises(InputError, match="order.colour"):
        order_from_dict({"id": "c", "kind": "chip_race", "remove": 25, "next_chip": 100, "seed": 1, "colour": "red"})
    with pytest.raises(InputError, match="order.next_chip"):
        order_from_dict({"id": "c", "kind": "chip_race", "remove": 25, "next_chip": 110, "seed": 1})
