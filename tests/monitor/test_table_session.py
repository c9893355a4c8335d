"""The TableSession facade: refusals change nothing, replay and undo are exact, misdeals void
the hand with the button kept, snapshots keep hole cards apart and never show undealt cards."""

from __future__ import annotations

import json
from typing import Any

import pytest

from dealer_pi.engine.cards import Card
from dealer_pi.engine.errors import InputError, RuleViolation
from dealer_pi.engine.monitor.alerts import (
    AlertConfirmed,
    AlertDismissed,
    AlertRaised,
    ProcedureCompleted,
    Verdict,
    alert_event_from_dict,
)
from dealer_pi.engine.observations import (
    ActionKind,
    AlertDecision,
    CardSeen,
    DealerDeclaration,
    Decision,
    Declaration,
    Observation,
    PlayerAction,
    ShoeDraw,
    Zone,
    observation_from_dict,
)
from dealer_pi.engine.table_session import TableSession, TableSetup, event_to_json
from dealer_pi.sim import Fault, Simulator

SETUP = TableSetup.from_dict({"profile": "standard", "blinds": [5, 10],
                              "seats": {"1": 1000, "3": 1000, "4": 800, "6": 1000}, "button": 1})
ORDER = [3, 4, 6, 1]


def deal(cards: str = "AhKdQsJcTc9d8h7s") -> list[Observation]:
    out: list[Observation] = []
    for i in range(8):
        c = Card.parse(cards[2 * i: 2 * i + 2])
        out += [ShoeDraw(c), CardSeen(Zone("seat", ORDER[i % 4]), False, None)]
    return out


def fed(setup: TableSetup, obs: list[Observation]) -> TableSession:
    s = TableSession(setup)
    for o in obs:
        s.feed(o)
    return s


def test_BET_OUT_OF_TURN_refused_and_nothing_changes() -> None:
    s = fed(SETUP, deal())
    before = json.dumps(s.snapshot())
    with pytest.raises(RuleViolation) as exc:
        s.feed(PlayerAction(1, ActionKind.CALL))
    assert exc.value.rule == "BET-OUT-OF-TURN"
    assert json.dumps(s.snapshot()) == before
    assert len(s.observations) == 16


def test_alert_decision_for_an_unknown_alert_is_an_input_error() -> None:
    s = fed(SETUP, deal())
    with pytest.raises(InputError) as exc:
        s.feed(AlertDecision("a9", Decision.CONFIRM))
    assert exc.value.where == "alert_id"


def test_DEAL_MISDEAL_REMEDY_stacks_and_blinds_back_button_stays() -> None:
    s = fed(SETUP, deal()[:4] + [ShoeDraw(Card.parse("Qs")), CardSeen(Zone("seat", 6), True, Card.parse("Qs"))])
    alert = s.open_alerts()[0]
    assert (alert.rule, alert.verdict) == ("DEAL-HOLE-EXPOSED", Verdict.MISDEAL)
    events = s.feed(AlertDecision(alert.alert_id, Decision.CONFIRM))
    assert AlertConfirmed(alert.alert_id, 6) in events
    snap = s.snapshot()
    assert snap["table"]["button"] == 1 and snap["table"]["hand_number"] == 2
    seats = snap["table"]["seats"]
    assert (seats["3"]["stack"], seats["4"]["stack"], seats["6"]["stack"]) == (995, 790, 1000)  # blinds posted again
    assert snap["alerts"] == [] and snap["secret"]["hole_cards"] == {"3": [], "4": [], "6": [], "1": []}
    with pytest.raises(RuleViolation) as exc:
        s.feed(DealerDeclaration(Declaration.NEW_HAND))
    assert exc.value.rule == "DEAL-MISDEAL-REMEDY"


def test_TABLE_BUTTON_moves_after_a_played_hand() -> None:
    s = fed(SETUP, deal() + [PlayerAction(6, ActionKind.FOLD), PlayerAction(1, ActionKind.FOLD),
                             PlayerAction(3, ActionKind.FOLD)])
    assert s.snapshot()["hand"]["phase"] == "complete"
    s.feed(DealerDeclaration(Declaration.NEW_HAND))
    snap = s.snapshot()
    assert snap["table"]["button"] == 3 and snap["table"]["seats"]["4"]["stack"] == 800 + 5 - 5
    # Nobody acts while the hole cards are dealt; "cards are out" opens the betting.
    assert (snap["hand"]["phase"], snap["hand"]["to_act"], snap["hand"]["legal"]) == ("dealing", None, None)
    s.feed(DealerDeclaration(Declaration.CARDS_OUT))
    assert s.snapshot()["hand"]["to_act"] == 1  # seat 4 small blind, 6 big blind, 1 first to act


def test_DEAL_MISDEAL_LOCK_refuses_the_dealers_misdeal_under_house_pig() -> None:
    setup = TableSetup.from_dict({**SETUP.to_dict(), "profile": "house-pig"})
    s = fed(setup, deal() + [PlayerAction(6, ActionKind.CALL), PlayerAction(1, ActionKind.CALL)])
    with pytest.raises(RuleViolation) as exc:
        s.feed(DealerDeclaration(Declaration.MISDEAL))
    assert exc.value.rule == "DEAL-MISDEAL-LOCK"
    std = fed(SETUP, deal() + [PlayerAction(6, ActionKind.CALL), PlayerAction(1, ActionKind.CALL)])
    std.feed(DealerDeclaration(Declaration.MISDEAL))
    assert std.snapshot()["table"]["seats"]["1"]["stack"] == 1000


def test_DEAL_HOLE_EXPOSED_roberts_procedure_is_tracked_to_its_end() -> None:
    setup = TableSetup.from_dict({**SETUP.to_dict(), "profile": "roberts"})
    obs = deal()
    obs[9] = CardSeen(Zone("seat", 3), True, Card.parse("Tc"))
    s = fed(setup, obs)
    assert [p["rule"] for p in s.snapshot()["procedures"]] == ["DEAL-HOLE-EXPOSED"]
    s.feed(ShoeDraw(Card.parse("2c")))
    s.feed(CardSeen(Zone("seat", 3), False, None))
    events = s.feed(CardSeen(Zone("burn"), False, None))
    assert [type(e) for e in events if isinstance(e, ProcedureCompleted)] == [ProcedureCompleted]
    snap = s.snapshot()
    assert snap["procedures"] == [] and snap["secret"]["hole_cards"]["3"] == ["Ah", "2c"]
    assert snap["hand"]["burns"] == 1


def test_replay_gives_the_same_events_and_snapshot() -> None:
    table = next(Simulator(seed=9, faults=list(Fault), rate=0.5, players=(4, 8)).tables(12))
    live = TableSession(table.setup)
    for o in table.observations():
        live.feed(o)
    again = TableSession.replay(table.setup, live.observations)
    assert [event_to_json(e) for e in again.events] == [event_to_json(e) for e in live.events]
    assert again.snapshot() == live.snapshot()
    assert any(isinstance(e, AlertRaised) for e in live.events)


def _json_obs(obs: list[Observation]) -> list[dict[str, Any]]:
    from dealer_pi.engine.observations import observation_to_dict
    return [observation_to_dict(o) for o in obs]


def test_undo_takes_back_the_last_dealer_entry_exactly() -> None:
    base = deal() + [PlayerAction(6, ActionKind.RAISE, 30), PlayerAction(1, ActionKind.CALL)]
    s = fed(SETUP, base)
    events = s.undo()
    assert [event_to_json(e)["type"] for e in events] == ["entry_undone"]
    expected = fed(SETUP, base[:-1])
    got, want = s.snapshot(), expected.snapshot()
    got.pop("observations"), want.pop("observations")
    assert got == want
    # The undo is itself an accepted observation: a replay gives the same table.
    assert TableSession.replay(SETUP, s.observations).snapshot() == s.snapshot()
    s.feed(PlayerAction(1, ActionKind.FOLD))
    assert s.snapshot()["table"]["seats"]["1"]["folded"] is True


def test_undo_of_a_dismissal_reopens_the_alert() -> None:
    s = fed(SETUP, deal() + [PlayerAction(6, ActionKind.CALL), CardSeen(Zone("seat", 6), True, Card.parse("Qs"))])
    [alert] = s.open_alerts()
    assert alert.rule == "DEAL-PLAYER-EXPOSED"
    assert AlertDismissed(alert.alert_id, 18) in s.feed(AlertDecision(alert.alert_id, Decision.DISMISS))
    assert s.open_alerts() == []
    s.undo()
    assert [a.alert_id for a in s.open_alerts()] == [alert.alert_id]


def test_undo_with_nothing_to_undo_is_an_input_error() -> None:
    s = fed(SETUP, deal()[:4])
    with pytest.raises(InputError):
        s.undo()


def test_DEAL_NO_RABBIT_snapshot_never_shows_cards_not_dealt() -> None:
    table = next(Simulator(seed=21).tables(6))
    s = TableSession(table.setup)
    drawn: set[str] = set()
    for o in table.observations():
        s.feed(o)
        if isinstance(o, ShoeDraw) and o.card is not None:
            drawn.add(str(o.card))
        if isinstance(o, DealerDeclaration) and o.declare is Declaration.NEW_HAND:
            drawn.clear()
        text = json.dumps(s.snapshot())
        named = {c for c in _all_cards() if f'"{c}"' in text}
        assert named <= drawn
        public = json.dumps(s.snapshot(secrets=False))
        assert "secret" not in s.snapshot(secrets=False)
        hole = {c for cards in s.snapshot()["secret"]["hole_cards"].values() for c in cards if c}
        shown = {c for cards in s.snapshot()["hand"]["shown"].values() for c in cards}
        assert not {c for c in hole - shown if f'"{c}"' in public}


def _all_cards() -> list[str]:
    from dealer_pi.engine.cards import FULL_DECK
    return [str(c) for c in FULL_DECK]


def test_events_have_a_json_form_that_reads_back() -> None:
    s = fed(SETUP, [ShoeDraw(Card.parse("Ah")), CardSeen(Zone("seat", 3), True, Card.parse("Ah"))])
    [alert] = s.open_alerts()
    d = event_to_json(alert)
    assert json.loads(json.dumps(d)) == d
    assert alert_event_from_dict(d) == alert
    assert d["rule"] == "DEAL-FIRST-EXPOSED" and d["verdict"] == "misdeal" and d["at"] == 1
    for e in s.events:
        json.dumps(event_to_json(e))


def test_setup_from_dict_round_trips_and_names_bad_fields() -> None:
    assert TableSetup.from_dict(SETUP.to_dict()) == SETUP
    with pytest.raises(InputError) as exc:
        TableSetup.from_dict({**SETUP.to_dict(), "seats": {"1": 100}})
    assert exc.value.where == "setup.seats"
    with pytest.raises(InputError) as exc:
        TableSetup.from_dict({**SETUP.to_dict(), "names": {"2": "Ann"}})
    assert exc.value.where == "setup.names.2"


def test_observation_json_from_a_scenario_feeds_the_session() -> None:
    s = TableSession(SETUP)
    s.feed(observation_from_dict({"type": "shoe_draw", "card": None}))
    events = s.feed(observation_from_dict({"type": "card_seen", "zone": "seat:4", "face_up": False, "card": None}))
    assert [(e.rule, e.verdict) for e in events if isinstance(e, AlertRaised)] == [("DEAL-ORDER", Verdict.MISDEAL)]


def test_undo_of_a_misdeal_brings_the_voided_hand_back() -> None:
    obs = deal()[:4] + [ShoeDraw(Card.parse("Qs")), CardSeen(Zone("seat", 6), True, Card.parse("Qs"))]
    s = fed(SETUP, obs)
    before = s.snapshot()
    s.feed(DealerDeclaration(Declaration.MISDEAL))
    assert s.snapshot()["table"]["hand_number"] == 2
    s.undo()
    after = s.snapshot()
    before.pop("observations"), after.pop("observations")
    assert after == before and [a.rule for a in s.open_alerts()] == ["DEAL-HOLE-EXPOSED"]


def test_undo_of_new_hand_returns_to_the_finished_hand() -> None:
    s = fed(SETUP, deal() + [PlayerAction(6, ActionKind.FOLD), PlayerAction(1, ActionKind.FOLD),
                             PlayerAction(3, ActionKind.FOLD), DealerDeclaration(Declaration.NEW_HAND),
                             ShoeDraw(Card.parse("2c")), CardSeen(Zone("seat", 1), False, None)])
    assert s.snapshot()["table"]["button"] == 3
    s.undo()  # the last dealer entry is "new hand": the two sensor observations after it are replayed
    snap = s.snapshot()
    assert snap["table"]["button"] == 1 and snap["hand"]["phase"] == "complete"
    assert [a.rule for a in s.open_alerts()] == ["DEAL-ORDER"]  # a card dealt before "new hand"


def test_hole_cards_are_never_in_the_events() -> None:
    table = next(Simulator(seed=2).tables(5))
    s = TableSession(table.setup)
    for o in table.observations():
        for e in s.feed(o):
            d = event_to_json(e)
            assert d["type"] != "hole_cards_dealt"
            if d["type"] == "hand_shown":
                assert s.snapshot()["hand"]["phase"] in ("showdown", "complete")


# -------------------------------------------------------------------- what a page opened mid-hand needs


def test_TABLE_BUTTON_snapshot_names_the_blind_seats_moving_with_the_button() -> None:
    s = TableSession(SETUP)
    hand = s.snapshot()["hand"]
    assert (hand["small_blind_seat"], hand["big_blind_seat"]) == (3, 4)
    heads_up = TableSession(TableSetup.from_dict({"blinds": [5, 10], "seats": {"2": 500, "5": 500}, "button": 5}))
    hand = heads_up.snapshot()["hand"]  # BET-HEADS-UP: the button posts the small blind
    assert (hand["small_blind_seat"], hand["big_blind_seat"]) == (5, 2)


def test_DEAL_HOLE_COUNT_snapshot_counts_hole_cards_per_seat_without_naming_them() -> None:
    s = TableSession(SETUP)

    def counts() -> dict[str, int]:
        return {k: v["hole_count"] for k, v in s.snapshot(secrets=False)["table"]["seats"].items()}

    assert counts() == {"1": 0, "3": 0, "4": 0, "6": 0}
    deck = [Card.parse(c) for c in ("Ah", "Kd", "Qs", "Jc", "Tc")]
    for card, seat in zip(deck, [3, 4, 6, 1, 3]):
        s.feed(ShoeDraw(card))
        s.feed(CardSeen(Zone.parse(f"seat:{seat}"), False, None))
    assert counts() == {"1": 1, "3": 2, "4": 1, "6": 1}  # mid-deal: not two backs everywhere
    text = json.dumps(s.snapshot(secrets=False))
    assert not any(str(c) in text for c in deck)


def test_snapshot_last_action_per_seat_follows_the_street_and_undo() -> None:
    s = fed(SETUP, deal())
    s.feed(PlayerAction(6, ActionKind.RAISE, 30))
    s.feed(PlayerAction(1, ActionKind.FOLD))
    seats = s.snapshot()["table"]["seats"]
    assert seats["6"]["last_action"] == {"action": "raise", "to": 30, "all_in": False}
    assert seats["1"]["last_action"] == {"action": "fold", "to": 0, "all_in": False}
    assert seats["3"]["last_action"] is None  # the small blind's post is not an action
    s.undo()
    assert s.snapshot()["table"]["seats"]["1"]["last_action"] is None
    assert s.snapshot()["table"]["seats"]["6"]["last_action"]["action"] == "raise"
    for seat, kind, to in [(1, ActionKind.CALL, 30), (3, ActionKind.CALL, 30), (4, ActionKind.CALL, 30)]:
        s.feed(PlayerAction(seat, kind, to))
    # the street is over: a new street starts with no actions
    assert all(v["last_action"] is None for v in s.snapshot()["table"]["seats"].values())
    again = TableSession.replay(SETUP, s.observations)
    assert again.snapshot() == s.snapshot()


def _assigners(path: str, cls: str, attr: str) -> set[str]:
    """The methods of ``cls`` that assign ``self.<attr>``."""
    import ast
    from pathlib import Path

    tree = ast.parse(Path(path).read_text())
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ClassDef) and node.name == cls:
            for fn in node.body:
                if isinstance(fn, ast.FunctionDef):
                    for n in ast.walk(fn):
                        targets = n.targets if isinstance(n, ast.Assign) else [n.target] if isinstance(
                            n, (ast.AnnAssign, ast.AugAssign)) else []
                        flat = [e for t in targets for e in (t.elts if isinstance(t, ast.Tuple) else [t])]
                        for t in flat:
                            if isinstance(t, ast.Attribute) and t.attr == attr and isinstance(t.value, ast.Name) \
                                    and t.value.id == "self":
                                found.add(fn.name)
    return found


def test_session_and_monitor_each_replace_their_state_in_one_place() -> None:
    import dealer_pi.engine.monitor.monitor as monitor_module
    import dealer_pi.engine.table_session as session_module

    assert _assigners(monitor_module.__file__, "DealMonitor", "_d") == {"__init__", "start_hand"}
    assert _assigners(session_module.__file__, "TableSession", "_s") == {"__init__", "_start_hand", "_undo", "_restore"}
    # Neither reaches into the other's state.
    from pathlib import Path
    assert "._d." not in Path(session_module.__file__).read_text()
