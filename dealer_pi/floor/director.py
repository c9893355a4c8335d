"""The tournament at the floor: players, the draw, the one clock, moves, hand-for-hand, money.

The director is the floor's single authority. It runs on the floor's worker
thread only: the tables' entries (:meth:`Director.on_entry`) and the floor
staff's commands (:meth:`Director.command`, journaled by the service) are its
inputs; its outputs are orders for the tables (``orders``, published retained
per table until a table reports them carried out), the clock and the
hand-for-hand round. The rules are the engine's (:mod:`dealer_pi.engine.tournament`).
"""

from __future__ import annotations

import collections
import random
from dataclasses import dataclass, field
from typing import Any, Deque, Mapping

from dealer_pi.engine.errors import InputError, RuleViolation
from dealer_pi.engine.tournament.balance import Move, TableSeats, plan_moves, worst_open_seats
from dealer_pi.engine.tournament.hand_for_hand import Progress, round_complete, still_playing
from dealer_pi.engine.tournament.orders import order_from_dict
from dealer_pi.engine.tournament.payout import Entries, Fees, PayoutStructure, prize_pool, split
from dealer_pi.engine.tournament.penalties import check_penalty
from dealer_pi.engine.tournament.rebuys import RebuyRules, Standing, chips_for
from dealer_pi.engine.tournament.seating import check_name, draw_buttons, draw_seats
from dealer_pi.runtime.clock import TableClock, check_command

from .floor_config import TournamentSection
from .room import Room

COMMANDS = ("register", "draw", "clock", "hand_for_hand", "penalty", "purchase", "balance", "deck_change", "chip_race")


@dataclass
class Player:
    name: str
    table: str | None = None
    seat: int | None = None
    stack: int = 0
    busted: tuple[str, int, int] | None = None  # (table, hand, ms) when the stack went to 0
    rebuys: int = 0
    add_ons: int = 0
    buy_backs: int = 0
    disqualified: bool = False
    penalties: list[dict[str, Any]] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "table": self.table, "seat": self.seat, "stack": self.stack,
                "out": self.busted is not None, "rebuys": self.rebuys, "add_ons": self.add_ons,
                "buy_backs": self.buy_backs, "disqualified": self.disqualified, "penalties": list(self.penalties)}


class Director:
    def __init__(self, t: TournamentSection, room: Room) -> None:
        self.t, self.room = t, room
        self.payouts = PayoutStructure.parse(t.payouts, "tournament.payouts")
        self.rules = RebuyRules(t.starting_stack, t.rebuy_chips, t.rebuy_until_level, t.add_on_chips, t.add_on_level,
                                t.buy_back)
        self.fees = Fees(t.buy_in, t.rebuy_price, t.add_on_price, t.buy_back_price, t.rake_percent)
        self.clock = TableClock()
        if t.levels:
            self.clock.apply(check_command({"action": "set_levels", "levels": list(t.levels)}), 0)
        self.players: dict[str, Player] = {}
        self.seed = t.seed
        self.drawn: set[str] = set()  # tables whose draw is carried out
        self.orders: dict[str, dict[str, dict[str, Any]]] = {}  # table -> id -> open order
        self.moves: dict[str, Move] = {}  # order id of the move out -> the move
        self.h4h: dict[str, Any] = {"active": False, "round": 0}
        self.played_round: dict[str, int] = {}
        self.breaking: set[str] = set()  # tables being broken: nobody is sent there any more
        self.eliminated: list[str] = []  # out, in the order they went (the first is last place)
        self.chips_bought = 0
        self.chips_removed = 0
        self.counter = 0
        self.log: Deque[dict[str, Any]] = collections.deque(maxlen=50)
        self.changed: set[str] = set()  # "clock", "hand_for_hand", "orders:<table>"
        for name in t.players:
            self._register(name, 0)

    # ------------------------------------------------------------------ helpers

    def _id(self, prefix: str) -> str:
        self.counter += 1
        return f"{prefix}{self.counter}"

    def _order(self, table: str, order: dict[str, Any]) -> None:
        order_from_dict(order, "order")  # the floor sends only what a table would accept
        self.orders.setdefault(table, {})[order["id"]] = order
        self.changed.add(f"orders:{table}")

    def _note(self, now: int, text: str, table: str | None = None) -> None:
        self.log.appendleft({"ts_ms": now, "text": text, "table": table})

    def level(self, now: int) -> int:
        return int(self.clock.view(now)["level"])

    def in_play(self) -> list[str]:
        """Tables of the tournament still playing (drawn, not broken, two players or more)."""
        return [name for name in self.t.tables if name in self.drawn and not self.room.table(name).broken
                and len(self._seats_now(name)) >= 2]

    def _seats_now(self, name: str) -> dict[int, str]:
        return self.room.table(name).players()

    # ------------------------------------------------------------------ commands

    def command(self, body: Mapping[str, Any], now: int) -> dict[str, Any]:
        """One command of the floor staff; raises InputError / RuleViolation with nothing changed."""
        cmd = body.get("cmd")
        if cmd not in COMMANDS:
            raise InputError("cmd", "must be one of " + ", ".join(COMMANDS))
        handler = getattr(self, f"_cmd_{cmd}")
        result: dict[str, Any] = handler(body, now)
        return result

    def _cmd_register(self, body: Mapping[str, Any], now: int) -> dict[str, Any]:
        check_name(body.get("name"), self.players)
        late = self._late_seat() if self.drawn else None  # refused before anything changes
        name = self._register(body.get("name"), now)
        if late is not None:
            table, seat = late
            self._order(table, {"id": self._id("late"), "kind": "move_in", "player": name, "seat": seat,
                                "stack": self.t.starting_stack, "from_table": "registration"})
            self._note(now, f"{name} (late registration) to table {table} seat {seat}", table)
        return {"player": self.players[name].to_json()}

    def _register(self, name: Any, now: int) -> str:
        clean = check_name(name, self.players)
        self.players[clean] = Player(clean)
        self._note(now, f"{clean} registered")
        return clean

    def _late_seat(self, exclude: str | None = None) -> tuple[str, int]:
        """A late registration's seat: the worst open seat of the shortest table (000 §54)."""
        views = [v for v in self._balance_views() if v.table != exclude]
        if not views:
            raise RuleViolation("TABLE-MOVE", "no table in play to seat a late registration")
        dest = min(views, key=lambda v: (v.count, self.t.tables.index(v.table)))
        seats = worst_open_seats(dest)
        if not seats:
            raise RuleViolation("TABLE-MOVE", "every table is full")
        return dest.table, seats[0]

    def _cmd_draw(self, body: Mapping[str, Any], now: int) -> dict[str, Any]:
        if self.drawn or any(o for o in self.orders.values()):
            raise RuleViolation("TABLE-MOVE", "the seats are drawn already")
        if len(self.players) < 2:
            raise InputError("players", "register at least two players before the draw")
        if not self.t.tables:
            raise InputError("tournament.tables", "the config lists no table")
        seed = body.get("seed") or self.seed or random.SystemRandom().randrange(1, 2**31)
        if isinstance(seed, bool) or not isinstance(seed, int):
            raise InputError("seed", "must be a whole number")
        self.seed = seed
        seating = draw_seats(list(self.players), self.t.tables, self.t.seats_per_table, seed)
        buttons = draw_buttons(seating, seed)
        for table, button in buttons.items():
            seats = {str(at.seat): {"name": p, "stack": self.t.starting_stack} for p, at in seating.items() if at.table == table}
            self._order(table, {"id": f"draw-{table}", "kind": "seat_draw", "seats": seats, "button": button})
        for p, at in seating.items():
            self.players[p].table, self.players[p].seat, self.players[p].stack = at.table, at.seat, self.t.starting_stack
        self._note(now, f"seats drawn (seed {seed}): {len(seating)} players at {len(buttons)} tables")
        return {"seed": seed, "seats": {p: {"table": at.table, "seat": at.seat} for p, at in sorted(seating.items())}}

    def _cmd_clock(self, body: Mapping[str, Any], now: int) -> dict[str, Any]:
        cmd = check_command({k: v for k, v in body.items() if k != "cmd"}, "clock")
        if cmd["action"] in ("shot_clock", "shot_clock_stop", "sync"):
            raise InputError("clock.action", "the shot clock is the table's; the floor runs the levels")
        self.clock.apply(cmd, now)
        self.changed.add("clock")
        self._note(now, f"clock: {cmd['action']}")
        return self.clock.view(now)

    def _cmd_hand_for_hand(self, body: Mapping[str, Any], now: int) -> dict[str, Any]:
        active = body.get("active")
        if not isinstance(active, bool):
            raise InputError("active", "must be true or false")
        if active != self.h4h["active"]:
            self.h4h = {"active": active, "round": 0}
            self.played_round = {}
            self.changed.add("hand_for_hand")
            self._note(now, "hand for hand" + (" begins: every table waits for the others (000 §56)" if active else " ends"))
        return self.hand_for_hand_view()

    def _find(self, name: Any) -> Player:
        if not isinstance(name, str) or name not in self.players:
            raise InputError("player", f"no registered player {name!r}")
        return self.players[name]

    def _cmd_penalty(self, body: Mapping[str, Any], now: int) -> dict[str, Any]:
        player = self._find(body.get("player"))
        penalty = check_penalty({k: body.get(k) for k in ("kind", "minutes", "reason") if k in body})
        if player.table is None or player.seat is None or player.busted:
            raise RuleViolation("TABLE-PENALTY", f"{player.name} is not seated at a table")
        oid = self._id("pen")
        self._order(player.table, {"id": oid, "kind": "penalty", "player": player.name, "seat": player.seat,
                                   "penalty": {k: v for k, v in penalty.to_dict().items() if k != "minutes" or penalty.kind == "away"}})
        player.penalties.append(dict(penalty.to_dict(), ts_ms=now))
        if penalty.kind == "disqualification":
            player.disqualified = True
        self._note(now, f"penalty for {player.name}: {penalty.describe()}", player.table)
        return {"order": oid, "player": player.to_json()}

    def _cmd_purchase(self, body: Mapping[str, Any], now: int) -> dict[str, Any]:
        player = self._find(body.get("player"))
        kind = body.get("kind")
        where = player.busted[0] if player.busted else player.table
        missed = bool(player.busted) and self._missed_hand(player)
        first_out = bool(self.eliminated) and self.eliminated[0] == player.name
        standing = Standing(busted=player.busted is not None, missed_hand=missed, first_out=first_out,
                            add_ons=player.add_ons, buy_backs=player.buy_backs, disqualified=player.disqualified)
        chips = chips_for(str(kind), self.rules, standing, self.level(now))
        if where is None or player.seat is None:
            raise RuleViolation("TABLE-REBUY", f"{player.name} has no table to buy chips at")
        oid = self._id("buy")
        self._order(where, {"id": oid, "kind": "rebuy", "player": player.name, "seat": player.seat, "chips": chips,
                            "purchase": kind})
        setattr(player, {"rebuy": "rebuys", "add-on": "add_ons", "buy-back": "buy_backs"}[str(kind)],
                getattr(player, {"rebuy": "rebuys", "add-on": "add_ons", "buy-back": "buy_backs"}[str(kind)]) + 1)
        self.chips_bought += chips
        self._note(now, f"{kind}: {player.name} buys {chips} chips (added between hands, TABLE-REBUY)", where)
        return {"order": oid, "chips": chips}

    def _missed_hand(self, player: Player) -> bool:
        """000 §58: out of chips, and the table has dealt a hand since."""
        assert player.busted is not None
        table, hand, _ = player.busted
        now_hand = self.room.table(table).hand
        return now_hand is not None and now_hand > hand

    def _cmd_balance(self, body: Mapping[str, Any], now: int) -> dict[str, Any]:
        return {"moves": [m.__dict__ for m in self._balance(now)]}

    def _cmd_deck_change(self, body: Mapping[str, Any], now: int) -> dict[str, Any]:
        table = body.get("table", "all")
        reason = body.get("reason") or "the floor calls for a new deck (000 §68)"
        tables = self.in_play() if table == "all" else [table]
        if table != "all" and table not in self.t.tables:
            raise InputError("table", f"no table {table!r} in this tournament")
        ids = []
        for name in tables:
            oid = self._id("deck")
            self._order(name, {"id": oid, "kind": "deck_change", "reason": str(reason)[:200]})
            ids.append(oid)
        self._note(now, f"deck change called at {', '.join(tables)}")
        return {"orders": ids}

    def _cmd_chip_race(self, body: Mapping[str, Any], now: int) -> dict[str, Any]:
        remove, nxt = body.get("remove"), body.get("next_chip")
        ids = []
        for name in self.in_play():
            oid = self._id("race")
            seed = random.Random(f"{self.seed}:{oid}").randrange(2**62)
            self._order(name, {"id": oid, "kind": "chip_race", "remove": remove, "next_chip": nxt, "seed": seed})
            ids.append(oid)
        self._note(now, f"colour-up of the {remove} chips: chip race at {len(ids)} tables (TABLE-CHIP-RACE)")
        return {"orders": ids}

    # ------------------------------------------------------------------ the tables' entries

    def on_entry(self, table: str, entry: Mapping[str, Any], seen: list[str], now: int) -> None:
        floor = entry.get("floor") or {}
        for rec in list(floor.get("done", ())) + list(floor.get("floor_done", ())):
            self._done(table, rec, now)
        if floor.get("broken") and table not in self.breaking:
            self.breaking.add(table)  # its last players left: nobody is sent there any more
            self._reroute(table, now)
        if "hand_started" in seen:
            self._locate(table)
            if self.h4h["active"]:
                self.played_round[table] = self.h4h["round"]
        if "hand_ended" in seen:
            self._busts(table, now)
            self._locate(table)
            if self.t.auto_balance and self.drawn:
                self._balance(now)
            self._bubble(now)
        self._advance_round(now)

    def _bubble(self, now: int) -> None:
        """Hand-for-hand by itself near the bubble (000 §56), over once everyone left is paid."""
        left = sum(1 for p in self.players.values() if p.busted is None)
        at = self.t.hand_for_hand_at
        if at and not self.h4h["active"] and self.payouts.places < left <= at:
            self._cmd_hand_for_hand({"active": True}, now)
        elif at and self.h4h["active"] and left <= self.payouts.places:
            self._cmd_hand_for_hand({"active": False}, now)
            self._note(now, f"the bubble has burst: {left} players left, all in the money")

    def _locate(self, table: str) -> None:
        for seat, row in self.room.table(table).seats.items():
            p = self.players.get(row["name"])
            if p is not None and row["stack"] > 0:
                p.table, p.seat, p.stack = table, seat, row["stack"]

    def _busts(self, table: str, now: int) -> None:
        view = self.room.table(table)
        for name, start in sorted(view.busted, key=lambda b: b[1]):  # the smaller stack goes out first
            p = self.players.get(name)
            if p is None or p.busted is not None:
                continue
            p.busted, p.stack = (table, view.hand or 0, now), 0
            self.eliminated.append(name)
            self._note(now, f"{name} is out at table {table} ({self._place_of(name)})", table)

    def _place_of(self, name: str) -> str:
        from dealer_pi.engine.tournament.payout import ordinal

        return ordinal(len(self.players) - self.eliminated.index(name))

    def _done(self, table: str, rec: Mapping[str, Any], now: int) -> None:
        oid = str(rec.get("id"))
        order = self.orders.get(table, {}).pop(oid, None)
        if order is None:
            return
        self.changed.add(f"orders:{table}")
        kind = rec.get("kind")
        if kind == "seat_draw":
            self.drawn.add(table)
        elif kind == "move_out":
            self._moved_out(table, oid, rec, now)
        elif kind == "move_in":
            p = self.players.get(str(rec.get("player")))
            if p is not None:
                p.table, p.seat = table, int(rec["seat"])
            self._note(now, f"{rec.get('player')} sits at table {table} seat {rec.get('seat')}", table)
        elif kind == "rebuy" and not rec.get("refused"):
            self._rebought(str(rec.get("player")), table, now)
        elif kind == "penalty" and "chips_removed" in rec:
            self.chips_removed += int(rec["chips_removed"])
            self._out(str(rec.get("player")), table, now)
        elif kind == "chip_race":
            race = rec.get("race") or {}
            self.chips_removed += int(race.get("removed", 0)) - int(rec.get("next_chip", 0)) * len(race.get("rescued", []))

    def _moved_out(self, table: str, oid: str, rec: Mapping[str, Any], now: int) -> None:
        move = self.moves.pop(oid, None)
        p = self.players.get(str(rec.get("player")))
        if p is not None:
            p.table, p.seat = None, None
        if move is None or not rec.get("stack"):
            return
        to_table, to_seat = move.to_table, move.to_seat
        if to_table in self.breaking:  # the table it was going to breaks meanwhile
            try:
                to_table, to_seat = self._late_seat(exclude=to_table)
            except RuleViolation:
                pass  # rerouted at the next plan
        self._order(to_table, {"id": oid.replace("-out", "-in"), "kind": "move_in", "player": move.player,
                               "seat": to_seat, "stack": int(rec["stack"]), "from_table": table})
        self._note(now, f"{move.player} leaves table {table} for table {to_table} seat {to_seat}", table)

    def _rebought(self, name: str, table: str, now: int) -> None:
        p = self.players.get(name)
        if p is not None and p.busted is not None:
            p.busted = None
            if name in self.eliminated:
                self.eliminated.remove(name)
            self._note(now, f"{name} is back in (rebuy at table {table})", table)

    def _out(self, name: str, table: str, now: int) -> None:
        p = self.players.get(name)
        if p is not None and p.busted is None:
            p.busted, p.stack, p.table, p.seat = (table, self.room.table(table).hand or 0, now), 0, None, None
            self.eliminated.append(name)

    # ------------------------------------------------------------------ TABLE-MOVE

    def _balance_views(self) -> list[TableSeats]:
        views = []
        for name in self.t.tables:
            if name not in self.drawn or self.room.table(name).broken or name in self.breaking:
                continue
            t = self.room.table(name)
            orders = self.orders.get(name, {}).values()
            coming = [m.to_seat for m in self.moves.values() if m.to_table == name]  # ordered out, not yet left
            reserved = frozenset([int(o["seat"]) for o in orders if o["kind"] == "move_in"] + coming)
            leaving = frozenset(str(o["player"]) for o in orders if o["kind"] == "move_out")
            views.append(TableSeats(name, t.players(), t.big_blind_seat, self.t.seats_per_table, reserved, leaving))
        return views

    def _balance(self, now: int) -> list[Move]:
        plan = plan_moves(self._balance_views())
        for move in plan.moves:
            oid = self._id("mv") + "-out"
            self.moves[oid] = move
            self._order(move.from_table, {"id": oid, "kind": "move_out", "player": move.player, "seat": move.from_seat,
                                          "to_table": move.to_table, "to_seat": move.to_seat})
        if plan.broken:
            self.breaking.add(plan.broken)
            self._note(now, f"table {plan.broken} breaks: {len(plan.moves)} players to move (TABLE-MOVE)", plan.broken)
        elif plan.moves:
            self._note(now, "balancing: " + "; ".join(f"{m.player} {m.from_table}→{m.to_table}" for m in plan.moves))
        for name in sorted(self.breaking):
            self._reroute(name, now)
        return list(plan.moves)

    def _reroute(self, broken: str, now: int) -> None:
        """Players on their way to a table that breaks go to another table's worst open seat instead."""
        for oid, order in list(self.orders.get(broken, {}).items()):
            if order["kind"] != "move_in":
                continue
            try:
                table, seat = self._late_seat(exclude=broken)
            except RuleViolation:
                return  # every seat is held by players still on their way: at the next plan
            del self.orders[broken][oid]
            self.changed.add(f"orders:{broken}")
            self._order(table, dict(order, id=self._id("re") + "-in", seat=seat))
            self._note(now, f"{order['player']} goes to table {table} seat {seat} instead ({broken} breaks)", table)

    # ------------------------------------------------------------------ TABLE-HAND-FOR-HAND

    def _progress(self) -> dict[str, Progress]:
        return {name: Progress(self.room.table(name).running, self.played_round.get(name, 0)) for name in self.in_play()}

    def _advance_round(self, now: int) -> None:
        if not self.h4h["active"]:
            return
        progress = self._progress()
        if progress and round_complete(self.h4h["round"], progress):
            self.h4h = {"active": True, "round": self.h4h["round"] + 1}
            self.changed.add("hand_for_hand")
            self._note(now, f"hand for hand: round {self.h4h['round']}, every table deals one hand")
        elif self._playing_changed(progress):
            self.changed.add("hand_for_hand")

    def _playing_changed(self, progress: Mapping[str, Progress]) -> bool:
        playing = still_playing(self.h4h["round"], progress)
        changed = playing != self.h4h.get("_playing")
        self.h4h["_playing"] = playing
        return changed

    def hand_for_hand_view(self) -> dict[str, Any]:
        return {"active": self.h4h["active"], "round": self.h4h["round"],
                "playing": still_playing(self.h4h["round"], self._progress()) if self.h4h["active"] else []}

    # ------------------------------------------------------------------ views

    def clock_message(self, now: int) -> dict[str, Any]:
        v = self.clock.view(now)
        return {"levels": v["levels"], "level": v["level"], "running": v["running"], "remaining_ms": v["remaining_ms"],
                "sent_ms": now}

    def tournament_view(self, now: int) -> dict[str, Any]:
        entries = Entries(len(self.players), sum(p.rebuys for p in self.players.values()),
                          sum(p.add_ons for p in self.players.values()))
        buy_backs = sum(p.buy_backs for p in self.players.values())
        pool = prize_pool(entries, self.fees, buy_backs)
        prizes = split(pool, self.payouts, self.t.payout_unit)
        left = [p for p in self.players.values() if p.busted is None]
        chips = len(self.players) * self.t.starting_stack + self.chips_bought - self.chips_removed
        finishers = {len(self.players) - i: n for i, n in enumerate(self.eliminated)}
        if len(left) == 1 and self.drawn:
            finishers[1] = left[0].name
        return {
            "name": self.t.name, "currency": self.t.currency, "clock": self._clock_view(now),
            "entrants": len(self.players), "players_left": len(left), "chips_in_play": chips,
            "average_stack": chips // len(left) if left else 0, "prize_pool": pool,
            "rebuys": entries.rebuys, "add_ons": entries.add_ons, "buy_backs": buy_backs,
            "payouts": [{"place": i + 1, "amount": a, "percent": self.payouts.percents()[i], "player": finishers.get(i + 1)}
                        for i, a in enumerate(prizes)],
            "tables_in_play": len(self.in_play()), "hand_for_hand": self.hand_for_hand_view(), "drawn": bool(self.drawn),
        }

    def _clock_view(self, now: int) -> dict[str, Any]:
        v = self.clock.view(now)
        out = {k: v[k] for k in ("level", "running", "remaining_ms", "current", "next", "server_time_ms")}
        out["next_break_ms"] = self._next_break(v)
        return out

    def _next_break(self, v: Mapping[str, Any]) -> int | None:
        """Time until the next break starts (None when no break is left)."""
        levels, i = v["levels"], v["level"] - 1
        if not levels or v["current"] is None or v["current"].get("break"):
            return 0 if v.get("current") and v["current"].get("break") else None
        total = v["remaining_ms"] or 0
        for lv in levels[i + 1:]:
            if lv.get("break"):
                return int(total)
            total += int(lv["minutes"] * 60_000)
        return None

    def open_orders(self, table: str) -> list[dict[str, Any]]:
        return list(self.orders.get(table, {}).values())

    def take_changes(self) -> set[str]:
        out, self.changed = self.changed, set()
        return out
