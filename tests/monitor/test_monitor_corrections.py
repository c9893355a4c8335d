"""Corrections the dealer carries out (or not) never leave a hand stuck, and burns are counted
per street: a re-dealt street stands, a second burn and a burn before a no-burn river are flagged,
and nobody acts while the hole cards are still being dealt."""

from __future__ import annotations

import pytest

from dealer_pi.engine.cards import Card
from dealer_pi.engine.errors import InputError
from dealer_pi.engine.monitor.alerts import AlertRaised, ProcedureCompleted, Verdict
from dealer_pi.engine.observations import (
    ActionKind,
    CardLeft,
    CardSeen,
    DealerDeclaration,
    Declaration,
    Observation,
    PlayerAction,
    ShoeDraw,
    Zone,
)
from dealer_pi.engine.table_session import SessionEvent, TableSession, TableSetup

SEATS = {"1": 1000, "3": 1000, "4": 1000, "6": 1000}
ORDER = [3, 4, 6, 1]  # button 1
BOARD, BURN = Zone("board"), Zone("burn")


def session(profile: str) -> TableSession:
    return TableSession(TableSetup.from_dict({"profile": profile, "blinds": [5, 10], "seats": SEATS, "button": 1}))


def c(code: str) -> Card:
    return Card.parse(code)


def hole_deal(cards: str = "AhKdQsJcTc9d8h7s") -> list[Observation]:
    out: list[Observation] = []
    for i in range(8):
        out += [ShoeDraw(c(cards[2 * i: 2 * i + 2])), CardSeen(Zone("seat", ORDER[i % 4]), False, None)]
    return out


def preflop_called() -> list[Observation]:
    return [PlayerAction(6, ActionKind.CALL), PlayerAction(1, ActionKind.CALL), PlayerAction(3, ActionKind.CALL),
            PlayerAction(4, ActionKind.CHECK)]


def burn(code: str) -> list[Observation]:
    return [ShoeDraw(c(code)), CardSeen(BURN, False, None)]


def board(*codes: str) -> list[Observation]:
    out: list[Observation] = []
    for code in codes:
        out += [ShoeDraw(c(code)), CardSeen(BOARD, True, c(code))]
    return out


def feed(s: TableSession, obs: list[Observation]) -> list[SessionEvent]:
    events: list[SessionEvent] = []
    for o in obs:
        events += s.feed(o)
    return events


def alerts(events: list[SessionEvent]) -> list[tuple[str, Verdict]]:
    return [(e.rule, e.verdict) for e in events if isinstance(e, AlertRaised)]


def four_card_flop(s: TableSession) -> list[SessionEvent]:
    """A burn and four cards turned on the flop: the fourth raises DEAL-FLOP-EXTRA."""
    return feed(s, hole_deal() + preflop_called() + burn("6c") + board("5d", "4h", "3s", "2c"))


def take_back(*codes: str) -> list[Observation]:
    return [CardLeft(BOARD, c(code)) for code in codes] + [DealerDeclaration(Declaration.SHUFFLE_DONE)]


# ---------------------------------------------------------------- 1: a street dealt again


@pytest.mark.parametrize("profile", ["standard", "roberts", "online"])
def test_DEAL_FLOP_EXTRA_reflop_after_the_same_burn_stands_under_001(profile: str) -> None:
    s = session(profile)
    assert alerts(four_card_flop(s)) == [("DEAL-FLOP-EXTRA", Verdict.IRREGULARITY)]
    assert "the burn card already out stays (001)" in s.open_alerts()[0].remedy
    events = feed(s, take_back("5d", "4h", "3s", "2c") + board("Kc", "Qh", "Js"))
    assert alerts(events) == []  # 001: retrieved, re-shuffled and re-dealt; no new burn asked for
    assert [type(e) for e in events if isinstance(e, ProcedureCompleted)] == [ProcedureCompleted]
    snap = s.snapshot()
    assert snap["hand"]["board"] == ["Kc", "Qh", "Js"] and snap["hand"]["to_act"] == 3
    s.feed(PlayerAction(3, ActionKind.BET, 20))  # the flop betting is open: the hand is not stuck
    assert s.snapshot()["hand"]["pot_total"] == 60


def test_DEAL_FLOP_EXTRA_reflop_without_a_new_burn_stands_with_an_alert_under_002() -> None:
    s = session("house-pig")
    four_card_flop(s)
    assert "burn a new card" in s.open_alerts()[0].remedy
    events = feed(s, take_back("5d", "4h", "3s", "2c") + board("Kc", "Qh", "Js"))
    [(rule, verdict)] = alerts(events)
    assert (rule, verdict) == ("DEAL-BURN", Verdict.IRREGULARITY)
    remedy = s.open_alerts()[-1].remedy
    assert "without burning a new card" in remedy and "stands" in remedy and "002 §14.4" in remedy
    assert s.snapshot()["hand"]["board"] == ["Kc", "Qh", "Js"]
    s.feed(PlayerAction(3, ActionKind.CHECK))


def test_DEAL_FLOP_EXTRA_reflop_stands_even_when_nothing_saw_the_flop_taken_back() -> None:
    """No camera saw the cards leave and no "shuffle done": the next three cards are the flop."""
    s = session("house-pig")
    four_card_flop(s)
    events = feed(s, board("Kc", "Qh", "Js"))
    assert [r for r, _ in alerts(events)] == ["DEAL-BURN"]
    assert s.snapshot()["hand"]["board"] == ["Kc", "Qh", "Js"]


def test_DEAL_FLOP_EXTRA_reflop_with_a_new_burn_is_clean_in_every_profile() -> None:
    for profile in ("standard", "roberts", "house-pig", "online"):
        s = session(profile)
        four_card_flop(s)
        events = feed(s, take_back("5d", "4h", "3s", "2c") + burn("Ad") + board("Kc", "Qh", "Js"))
        assert alerts(events) == [], profile
        assert s.snapshot()["hand"]["board"] == ["Kc", "Qh", "Js"]


def test_DEAL_FLOP_EXTRA_a_card_taken_back_from_a_flop_coming_in_is_forgotten() -> None:
    s = session("roberts")
    four_card_flop(s)
    feed(s, board("Kc") + [CardLeft(BOARD, c("Kc"))] + board("Qh", "Js", "Kc"))
    assert s.snapshot()["hand"]["board"] == ["Qh", "Js", "Kc"]


def test_DEAL_BOARD_EXTRA_turn_dealt_again_without_a_burn_stands_with_an_alert() -> None:
    s = session("standard")
    feed(s, hole_deal() + preflop_called() + burn("6c") + board("5d", "4h", "3s")
         + [PlayerAction(3, ActionKind.CHECK), PlayerAction(4, ActionKind.CHECK), PlayerAction(6, ActionKind.CHECK),
            PlayerAction(1, ActionKind.CHECK)])
    events = feed(s, board("2c"))  # the turn with no burn
    assert alerts(events) == [("DEAL-BOARD-EXTRA", Verdict.IRREGULARITY)]
    events = feed(s, take_back("2c") + board("Kc"))  # again without a burn (002 §14.5 asks for one)
    assert [r for r, _ in alerts(events)] == ["DEAL-BURN"]
    assert s.snapshot()["hand"]["board"] == ["5d", "4h", "3s", "Kc"] and s.snapshot()["hand"]["to_act"] == 3


# ---------------------------------------------------------------- 2: two burns before one street


@pytest.mark.parametrize("profile", ["standard", "house-pig", "online"])
def test_DEAL_BURN_second_burn_before_the_flop_is_flagged_and_goes_back(profile: str) -> None:
    s = session(profile)
    feed(s, hole_deal() + preflop_called() + burn("6c"))
    events = feed(s, burn("5d"))
    assert alerts(events) == [("DEAL-BURN", Verdict.IRREGULARITY)]
    assert "Put it back on top of the deck" in s.open_alerts()[0].remedy
    assert s.snapshot()["hand"]["burns"] == 1
    # The dealer puts it back and deals the flop from it: no foul deck, the flop is right.
    events = feed(s, board("5d", "4h", "3s"))
    assert alerts(events) == []
    assert s.snapshot()["hand"]["board"] == ["5d", "4h", "3s"]


def test_DEAL_BURN_second_burn_left_out_shifts_the_flop_but_the_hand_goes_on() -> None:
    s = session("standard")
    feed(s, hole_deal() + preflop_called() + burn("6c") + burn("5d") + burn("4h"))
    assert [r for r, _ in alerts(list(s.events))] == ["DEAL-BURN"]  # flagged once for the street
    feed(s, board("3s", "2c", "Ad"))
    assert s.snapshot()["hand"]["board"] == ["3s", "2c", "Ad"]


def test_DEAL_BURN_roberts_the_exposed_hole_card_is_the_burn_a_second_burn_is_flagged() -> None:
    s = session("roberts")
    obs = hole_deal()
    obs[9] = CardSeen(Zone("seat", 3), True, c("Tc"))  # the fifth hole card dealt face up
    feed(s, obs + [ShoeDraw(c("2h")), CardSeen(Zone("seat", 3), False, None), CardSeen(BURN, False, None)])
    assert s.snapshot()["procedures"] == []  # replaced and burned (001)
    feed(s, preflop_called())
    events = feed(s, burn("6c"))
    assert alerts(events) == [("DEAL-BURN", Verdict.IRREGULARITY)]
    assert "the exposed hole card Tc is this street's burn (001)" in s.open_alerts()[-1].remedy


def test_DEAL_BURN_one_burn_per_street_is_clean() -> None:
    s = session("standard")
    checks = [PlayerAction(seat, ActionKind.CHECK) for seat in ORDER]
    feed(s, hole_deal() + preflop_called() + burn("6c") + board("5d", "4h", "3s") + checks
         + burn("2c") + board("Ad") + checks + burn("Kc") + board("Qh"))
    assert alerts(list(s.events)) == [] and s.snapshot()["hand"]["burns"] == 3


# ---------------------------------------------------------------- 3: no burn before the river after an early card


def _turn_betting(s: TableSession) -> None:
    checks = [PlayerAction(seat, ActionKind.CHECK) for seat in ORDER]
    feed(s, hole_deal() + preflop_called() + burn("6c") + board("5d", "4h", "3s") + checks + burn("2c") + board("Ad"))


@pytest.mark.parametrize("profile", ["standard", "roberts"])
def test_DEAL_RIVER_EARLY_burn_before_the_replacement_river_is_flagged(profile: str) -> None:
    s = session(profile)
    _turn_betting(s)
    s.feed(PlayerAction(3, ActionKind.CHECK))
    events = feed(s, burn("Kc") + board("Qh"))  # the river turned before the turn betting ended
    assert alerts(events) == [("DEAL-RIVER-EARLY", Verdict.IRREGULARITY)]
    feed(s, [CardLeft(BOARD, c("Qh")), PlayerAction(4, ActionKind.CHECK), PlayerAction(6, ActionKind.CHECK),
             PlayerAction(1, ActionKind.CHECK), DealerDeclaration(Declaration.SHUFFLE_DONE)])
    events = feed(s, burn("Js"))  # 001: the river comes without a new burn
    assert alerts(events) == [("DEAL-RIVER-EARLY", Verdict.IRREGULARITY)]
    assert "without a burn (001)" in s.open_alerts()[-1].remedy
    events = feed(s, board("Js"))  # put back on top and turned: the river, no foul deck
    assert alerts(events) == [] and any(isinstance(e, ProcedureCompleted) for e in events)
    assert s.snapshot()["hand"]["board"] == ["5d", "4h", "3s", "Ad", "Js"] and s.snapshot()["hand"]["burns"] == 3


def test_DEAL_TURN_EARLY_burn_before_the_river_after_the_reshuffle_is_flagged() -> None:
    s = session("standard")
    feed(s, hole_deal() + preflop_called() + burn("6c") + board("5d", "4h", "3s") + [PlayerAction(3, ActionKind.CHECK)])
    events = feed(s, burn("2c") + board("Ad"))
    assert alerts(events) == [("DEAL-TURN-EARLY", Verdict.IRREGULARITY)]
    feed(s, [CardLeft(BOARD, c("Ad"))] + [PlayerAction(seat, ActionKind.CHECK) for seat in (4, 6, 1)]
         + burn("Kc") + board("Qh") + [PlayerAction(seat, ActionKind.CHECK) for seat in ORDER])
    events = feed(s, burn("Js"))
    assert alerts(events) == [("DEAL-TURN-EARLY", Verdict.IRREGULARITY)]
    feed(s, board("Js"))
    assert s.snapshot()["hand"]["board"] == ["5d", "4h", "3s", "Qh", "Js"]


# ---------------------------------------------------------------- the hole-card deal


def test_DEAL_ORDER_nobody_is_to_act_while_the_hole_cards_are_dealt() -> None:
    s = session("standard")
    deal = hole_deal()
    for o in deal[:-1]:
        s.feed(o)
        snap = s.snapshot(secrets=False)["hand"]
        assert (snap["phase"], snap["to_act"], snap["legal"]) == ("dealing", None, None)
        assert s.legal_actions() is None
    s.feed(deal[-1])  # the eighth card lands: the betting opens
    snap = s.snapshot(secrets=False)["hand"]
    assert (snap["phase"], snap["to_act"]) == ("betting", 6) and snap["legal"]["to_call"] == 10


def test_DEAL_HOLE_COUNT_without_a_card_sensor_cards_out_opens_the_betting() -> None:
    s = session("standard")
    events = s.feed(DealerDeclaration(Declaration.CARDS_OUT))
    assert alerts(events) == []
    snap = s.snapshot()
    assert snap["hand"]["to_act"] == 6
    assert {k: v["hole_count"] for k, v in snap["table"]["seats"].items()} == {"1": 2, "3": 2, "4": 2, "6": 2}
    assert snap["secret"]["hole_cards"]["3"] == [None, None]  # dealt, never read
    with pytest.raises(InputError):
        s.feed(DealerDeclaration(Declaration.CARDS_OUT))


def test_DEAL_HOLE_COUNT_cards_out_with_seats_short_is_a_misdeal() -> None:
    s = session("standard")
    feed(s, hole_deal()[:12])  # six of eight cards seen
    events = s.feed(DealerDeclaration(Declaration.CARDS_OUT))
    assert alerts(events) == [("DEAL-HOLE-COUNT", Verdict.MISDEAL)]
