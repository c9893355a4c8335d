"""The tournament rules across the room: the floor decides, the tables apply between hands, both journal."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from floor_helpers import FLOOR_TOKEN, Table, floor, http, wait_for

from dealer_pi.config import ConfigError, config_from_dict
from dealer_pi.engine.errors import RuleViolation
from dealer_pi.engine.tournament.balance import blind_distance
from dealer_pi.floor.broker import LocalBroker
from dealer_pi.floor.floor_config import floor_config_from_dict

PLAYERS = [f"P{i:02d}" for i in range(10)]


class Room:
    def __init__(self, tmp: Path, url: str, room: str, **tournament: Any) -> None:
        t = {"players": PLAYERS, "seats_per_table": 6, "starting_stack": 100_000} | tournament
        self.svc = floor(tmp / "floor", url, room, **t)
        self.t1 = Table(tmp, url, room, "t1")
        self.t2 = Table(tmp, url, room, "t2")
        self.draw = self.svc.command({"cmd": "draw", "seed": 11})
        for t in (self.t1, self.t2):
            wait_for(lambda t=t: t.setup()["names"], what=f"the draw at {t.name}")
        wait_for(lambda: self.svc.director.drawn == {"t1", "t2"}, what="the floor hears the draw was done")

    def cmd(self, **body: Any) -> dict[str, Any]:
        return self.svc.command(body)

    def floor_entries(self, t: Table) -> list[dict[str, Any]]:
        """What the table journaled of the floor: its floor entries and the floor parts of its setups."""
        out = []
        for e in t.runtime.journal.entries_after(0):
            if e.kind == "floor" or (e.kind == "setup" and "floor_done" in e.body):
                out.append(dict(e.body, _kind=e.kind))
        return out

    def caught_up(self, t: Table) -> None:
        wait_for(lambda: self.svc.stats_view()["tables"].get(t.name) == t.runtime.journal.last_seq(), what="the floor")

    def close(self) -> None:
        self.t1.close()
        self.t2.close()
        self.svc.stop()


@pytest.fixture
def hall(tmp_path: Path, broker: LocalBroker, room: str) -> Iterator[Room]:
    r = Room(tmp_path, broker.url, room)
    yield r
    r.close()


def _done(entries: list[dict[str, Any]], kind: str) -> list[dict[str, Any]]:
    return [d for e in entries for d in e.get("floor_done", []) + e.get("done", []) if d.get("kind") == kind]


def test_seat_draw_reaches_the_tables(hall: Room) -> None:
    seats = hall.draw["seats"]
    assert sorted(seats) == PLAYERS
    for t in (hall.t1, hall.t2):
        setup = t.setup()
        drawn = {str(at["seat"]): p for p, at in seats.items() if at["table"] == t.name}
        assert setup["names"] == drawn and set(setup["seats"].values()) == {100_000}
        assert str(setup["button"]) in drawn
        # No card was out yet: the draw replaced the empty first hand, journaled with the order it carried out.
        done = wait_for(lambda t=t: _done(hall.floor_entries(t), "seat_draw"), what="the draw journaled")
        assert done[0]["id"] == f"draw-{t.name}"
    assert sorted(len([1 for at in seats.values() if at["table"] == n]) for n in ("t1", "t2")) == [5, 5]


def test_TABLE_LEVELS_the_floor_clock_sets_every_table_from_its_next_hand(hall: Room) -> None:
    hall.cmd(cmd="clock", action="start")
    for t in (hall.t1, hall.t2):
        wait_for(lambda t=t: t.runtime.clock_view()["running"] and t.runtime.clock_view()["level"] == 1, what="synced")
    hall.t1.hand()  # level 1's hand...
    hall.cmd(cmd="clock", action="next")  # ...the floor moves to level 2 (50/100, ante 10)
    wait_for(lambda: hall.t1.runtime.clock_view()["level"] == 2, what="level 2 at t1")
    assert hall.t1.runtime.clock_view()["pending"] is True
    assert hall.t1.runtime.table.next_level() == (25, 50, 0)  # the hand in play keeps its blinds
    hall.t1.new_hand()
    assert hall.t1.runtime.table.next_level() == (50, 100, 10)
    assert hall.t1.runtime.table.snapshot()["table"]["blinds"] == [50, 100]
    # TABLE-DECK-CHANGE (000 §68): the limits changed, so the dealer is asked for a new deck.
    deck = hall.t1.floor.view()["deck_change"]
    assert deck and "limits changed" in deck["reason"]
    # The other table has the same clock; it changes its blinds at its own next hand.
    assert hall.t2.runtime.clock_view()["level"] == 2 and hall.t2.runtime.table.next_level() == (25, 50, 0)
    # Level 3 is a break: no table deals a hand until play resumes.
    hall.cmd(cmd="clock", action="next")
    wait_for(lambda: hall.t1.runtime.clock_view()["level"] == 3, what="the break at t1")
    hall.t1.hand()
    with pytest.raises(RuleViolation, match="break") as err:
        hall.t1.new_hand()
    assert err.value.rule == "TABLE-LEVELS"


def test_TABLE_MOVE_a_balancing_move_reaches_both_tablets_and_is_journalled_on_both(hall: Room) -> None:
    t1, t2 = hall.t1, hall.t2
    # Two players of t1 are disqualified: after t1's next hand it has three to t2's five.
    out = [n for n in t1.setup()["names"].values()][:2]
    t1.card_out()
    t2.card_out()  # both hands are on: what the floor orders waits for their end
    for name in out:
        hall.cmd(cmd="penalty", player=name, kind="disqualification", reason="abuse (000 §46)")
    wait_for(lambda: len(t1.floor.view()["orders"]) == 2, what="the penalties at t1")
    t1.hand()
    t1.new_hand()
    assert len(t1.setup()["seats"]) == 3
    t1.hand()  # its hand ends: the floor balances
    move = wait_for(lambda: [o for o in t2.floor.view()["orders"] if o["kind"] == "MoveOut"], what="the move at t2")[0]
    assert "to table t1" in move["text"] and "TABLE-MOVE" in move["text"]
    order = hall.svc.director.open_orders("t2")[0]
    # The seat is t1's worst open one, and the player moved the one who does not lose position by it.
    t1_seats = [int(s) for s in t1.setup()["seats"]]
    bb1 = hall.svc.room.table("t1").big_blind_seat
    open_seats = [s for s in range(1, 7) if s not in t1_seats]
    seat_d = blind_distance(t1_seats, bb1, order["to_seat"])
    assert seat_d == min(blind_distance(t1_seats, bb1, s) for s in open_seats)
    t2_seats = [int(s) for s in t2.setup()["seats"]]
    bb2 = hall.svc.room.table("t2").big_blind_seat
    mover_d = blind_distance(t2_seats, bb2, order["seat"])
    assert mover_d <= seat_d and not any(mover_d < blind_distance(t2_seats, bb2, s) <= seat_d for s in t2_seats)
    t2.hand()
    t2.new_hand()
    (left,) = _done(hall.floor_entries(t2), "move_out")
    assert left["player"] == order["player"] and left["stack"] > 0 and order["player"] not in t2.setup()["names"].values()
    arrival = wait_for(lambda: [o for o in t1.floor.view()["orders"] if o["kind"] == "MoveIn"], what="the move at t1")[0]
    assert order["player"] in arrival["text"] and "from table t2" in arrival["text"]
    for _ in range(3):  # sits out a hand when the seat is between the small blind and the button
        t1.new_hand()
        if _done(hall.floor_entries(t1), "move_in"):
            break
        t1.hand()
    (seated,) = _done(hall.floor_entries(t1), "move_in")
    assert seated["player"] == order["player"] and seated["stack"] == left["stack"]
    assert t1.setup()["names"][str(seated["seat"])] == order["player"]


def test_TABLE_HAND_FOR_HAND_a_table_waits_until_every_table_has_finished(hall: Room) -> None:
    t1, t2 = hall.t1, hall.t2
    hall.cmd(cmd="hand_for_hand", active=True)
    wait_for(lambda: t1.floor.view()["hand_for_hand"]["active"] and t2.floor.view()["hand_for_hand"]["active"])
    t1.hand()
    wait_for(lambda: t1.floor.view()["hand_for_hand"]["playing"] == ["t2"], what="t2 shown as still playing")
    with pytest.raises(RuleViolation) as err:
        t1.new_hand()
    assert err.value.rule == "TABLE-HAND-FOR-HAND" and "t2" in err.value.message
    assert t1.floor.view()["hand_for_hand"]["may_deal"] is False
    t2.hand()
    wait_for(lambda: t1.floor.view()["hand_for_hand"]["round"] == 1, what="round 1")
    t1.new_hand()  # one hand each in round 1
    t1.hand()
    with pytest.raises(RuleViolation):
        t1.new_hand()  # t2 has not dealt its hand of the round yet
    t2.new_hand()
    t2.hand()
    wait_for(lambda: t1.floor.view()["hand_for_hand"]["round"] == 2, what="round 2")
    t1.new_hand()
    hall.cmd(cmd="hand_for_hand", active=False)
    wait_for(lambda: not t2.floor.view()["hand_for_hand"]["active"])
    t2.new_hand()


def test_TABLE_PENALTY_recorded_at_the_floor_and_applied_at_the_table(hall: Room) -> None:
    t1 = hall.t1
    names = list(t1.setup()["names"].items())
    (away_seat, away), (_, warned), (dq_seat, dq) = names[0], names[1], names[2]
    t1.card_out()
    hall.cmd(cmd="penalty", player=away, kind="away", minutes=10, reason="card off the table (000 §46)")
    hall.cmd(cmd="penalty", player=warned, kind="warning", reason="soft play")
    hall.cmd(cmd="penalty", player=dq, kind="disqualification", reason="abuse")
    # The warning is recorded at once; the others wait for the end of the hand.
    wait_for(lambda: any("verbal warning" in r["text"] for r in t1.floor.view()["recent"]), what="the warning")
    assert {o["kind"] for o in t1.floor.view()["orders"]} == {"PenaltyOrder"}
    t1.hand()
    chips_before = hall.svc.tournament_view()["chips_in_play"]
    result = t1.new_hand()
    setup = t1.setup()
    assert setup["away"] == [int(away_seat)] and dq_seat not in setup["seats"]
    killed = [e["event"] for e in result["events"] if e["event"]["type"] == "hand_killed"]
    assert killed == [{"type": "hand_killed", "seat": int(away_seat), "rule": "TABLE-AWAY"}]
    hall.caught_up(t1)
    view = hall.svc.tournament_view()
    assert view["chips_in_play"] < chips_before and view["players_left"] == len(PLAYERS) - 1
    players = {p["name"]: p for p in hall.svc.tables_view()["players"]}
    assert players[dq]["disqualified"] and players[dq]["out"]
    assert [p["kind"] for p in players[warned]["penalties"]] == ["warning"]


def test_TABLE_REBUY_chips_join_between_hands_and_the_prize_pool(tmp_path: Path, broker: LocalBroker, room: str) -> None:
    hall = Room(tmp_path, broker.url, room, rebuy_chips=5000, rebuy_until_level=2, rebuy_price=100,
                add_on_chips=2000, add_on_level=1, add_on_price=50)
    try:
        t1 = hall.t1
        seat, name = next(iter(t1.setup()["names"].items()))
        t1.card_out()
        hall.cmd(cmd="purchase", player=name, kind="add-on")
        wait_for(lambda: t1.floor.view()["orders"], what="the add-on at the table")
        assert t1.runtime.table.snapshot()["table"]["seats"][seat]["stack"] <= 100_000  # not during the hand
        t1.hand()
        ended = t1.runtime.table.snapshot()["table"]["seats"][seat]["stack"]
        t1.new_hand()
        assert t1.setup()["seats"][seat] == ended + 2000
        hall.caught_up(t1)
        view = hall.svc.tournament_view()
        assert view["prize_pool"] == 10 * 100 + 50 and view["add_ons"] == 1
        with pytest.raises(RuleViolation, match="one add-on"):
            hall.cmd(cmd="purchase", player=name, kind="add-on")
        with pytest.raises(RuleViolation, match="no buy-back"):
            hall.cmd(cmd="purchase", player=name, kind="buy-back")
    finally:
        hall.close()


def test_TABLE_CHIP_RACE_at_every_table_between_hands(hall: Room) -> None:
    t1 = hall.t1
    t1.card_out()
    hall.cmd(cmd="chip_race", remove=25, next_chip=1000)
    wait_for(lambda: t1.floor.view()["orders"], what="the race at t1")
    t1.hand()
    t1.new_hand()
    (race,) = _done(hall.floor_entries(t1), "chip_race")
    assert all(v % 1000 == 0 for v in t1.setup()["seats"].values())
    assert race["race"]["cards"] and race["race"]["chips_out"] == len(race["race"]["winners"])
    assert all(v > 0 for v in t1.setup()["seats"].values())  # nobody raced out (000 §50)


def test_TABLE_DECK_CHANGE_the_dealer_registers_the_new_deck(hall: Room) -> None:
    from dealer_pi.floor.table_api import attach_floor_api
    from dealer_pi.web.app import create_app

    hall.cmd(cmd="deck_change", table="t1", reason="dealer change")
    wait_for(lambda: hall.t1.floor.view()["deck_change"], what="the prompt")
    assert "shoe and the camera" in hall.t1.floor.view()["orders"][0]["text"]
    app = create_app(config_from_dict({"web": {"dealer_token": "d-1", "audit_log": str(hall.svc.store.path.parent / "a.log")}}),
                     hall.t1.runtime)
    attach_floor_api(app)
    client = app.test_client()
    assert client.post("/api/floor/deck-registered").status_code == 401
    resp = client.post("/api/floor/deck-registered", headers={"Authorization": "Bearer d-1"})
    assert resp.status_code == 200 and resp.get_json()["deck_change"] is None
    assert _done(hall.floor_entries(hall.t1), "deck_change")
    wait_for(lambda: not hall.svc.director.open_orders("t1"), what="the floor closes the order")
    again = client.post("/api/floor/deck-registered", headers={"Authorization": "Bearer d-1"})
    assert again.status_code == 400 and "no deck change" in again.get_json()["error"]["message"]


def test_TABLE_PAYOUT_the_floor_refuses_seed_002_and_pays_by_place(tmp_path: Path, hall: Room) -> None:
    with pytest.raises(ConfigError) as err:
        floor_config_from_dict({"floor": {"broker": "mqtt://127.0.0.1", "room": "main"},
                                "tournament": {"payouts": [60, 30, 20]}}, tmp_path)
    ((key, message),) = err.value.problems
    assert key == "tournament.payouts" and "110 %" in message and "TABLE-PAYOUT" in message
    with pytest.raises(ConfigError) as err:
        floor_config_from_dict({}, tmp_path)  # the floor needs its broker and room
    assert {k for k, _ in err.value.problems} == {"floor.broker", "floor.room"}
    view = hall.svc.tournament_view()
    assert view["prize_pool"] == 1000 and [p["amount"] for p in view["payouts"]] == [500, 300, 200]
    assert view["entrants"] == 10 and view["players_left"] == 10 and view["average_stack"] == 100_000


def test_floor_api_roles_and_checked_commands(hall: Room) -> None:
    from dealer_pi.floor.web import create_floor_app
    from dealer_pi.web.server import Server

    server = Server(create_floor_app(hall.svc, FLOOR_TOKEN), port=0, threads=4).start()
    try:
        url = server.url
        assert http("GET", url + "/api/tables", token=None)[0] == 401
        assert http("GET", url + "/api/tables", token="wrong")[0] == 401
        status, tables = http("GET", url + "/api/tables")
        assert status == 200 and {t["table"] for t in tables["tables"]} == {"t1", "t2"}
        wait_for(lambda: all(t["status"] == "online" for t in http("GET", url + "/api/tables")[1]["tables"]),
                 what="both tables online")
        status, board = http("GET", url + "/api/tournament", token=None)
        assert status == 200 and board["players_left"] == 10
        status, body = http("POST", url + "/api/tournament/penalty", {"player": "P01", "kind": "fine"})
        assert status == 400 and body["error"]["where"] == "penalty.kind"
        status, body = http("POST", url + "/api/tournament/penalty", {"player": "P01", "kind": "warning"}, token=None)
        assert status == 401
        status, body = http("POST", url + "/api/tournament/draw", {})
        assert status == 409 and body["error"]["rule"] == "TABLE-MOVE"
        status, body = http("POST", url + "/api/tournament/coffee", {})
        assert status == 400 and "register" in body["error"]["message"]
        status, body = http("POST", url + "/api/tournament/register", {"name": "Late Lou"})
        assert status == 200 and body["player"]["name"] == "Late Lou"
    finally:
        server.close()
