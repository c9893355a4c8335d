"""``dealer-pi demo``: the whole assistant on a simulated table, at a watchable pace.

The simulator plays hands (bots choosing legal actions) and the table reports them the
way a real one would: every card leaves a virtual smart shoe on a pseudo-terminal, read
by the real serial-shoe code; an overhead camera films the felt (cards landing face down
in the seats, the board, burns, chips, the players' and the dealer's hands) and the real
vision pipeline, calibrated from the table's markers, reports where cards land; the
players' actions are entered like the tablet's. The simulator's own record of the cards
only checks the camera (every disagreement is logged); ``--no-camera`` sends it to the
engine instead. Now and then the simulated dealer makes a mistake on purpose (an exposed
card, a missed burn...), and the alert shows on the tablet, the overlay and the (mock)
alert light. Open the printed URLs in a browser.
"""

from __future__ import annotations

import argparse
import dataclasses
import logging
import secrets
import shutil
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

NAME = "demo"
HELP = "run the assistant on a simulated table (prints the URLs and demo tokens)"

PLAYERS = ("Ana", "Ben", "Chloe", "Dev", "Emeka", "Farah", "Gus", "Hana", "Ivo", "Jules")
LEVELS = [
    {"small_blind": 5, "big_blind": 10, "minutes": 15},
    {"small_blind": 10, "big_blind": 20, "minutes": 15},
    {"small_blind": 15, "big_blind": 30, "minutes": 15},
    {"small_blind": 25, "big_blind": 50, "minutes": 15},
    {"small_blind": 50, "big_blind": 100, "minutes": 15},
]  # no antes: the simulator's bots play blinds only


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--host", default="127.0.0.1", help="address to serve on (default 127.0.0.1; 0.0.0.0 for other devices)")
    parser.add_argument("--port", type=int, default=8000, help="port to serve on (default 8000; 0 picks a free one)")
    parser.add_argument("--seed", type=int, default=None, help="simulator seed (default: random)")
    parser.add_argument("--pace", type=float, default=1.0, help="speed factor: 2 plays twice as fast (default 1)")
    parser.add_argument("--fault-rate", type=float, default=0.2, help="share of hands with a dealing mistake (default 0.2)")
    parser.add_argument("--delay", type=int, default=30, help="public stream delay in seconds (default 30)")
    parser.add_argument("--state-dir", help="keep the journal here (default: a temporary folder, removed at exit "
                        "unless --hands is given)")
    parser.add_argument("--hands", type=int, default=0, help="stop after this many hands, then say how many were "
                        "played and where the journal is (default: never)")
    parser.add_argument("--no-camera", action="store_true",
                        help="cards reported by the simulator itself, not seen by the vision pipeline (faster)")


THINK_S = 1.1  # how long a bot takes to act at --pace 1 (a visitor may act for the seat meanwhile)
HANDS_PER_TABLE = 10_000  # the players stay until one of them has every chip


class SimDriver:
    """Feeds simulated tables into the runtime: shoe draws through the virtual shoe, the rest queued.

    A visitor may play along on the tablet: an action entered there is taken as that seat's action
    and the bots play on from it (:mod:`dealer_pi.sim.follow`); anything the simulation cannot
    follow gets the hand dealt again with the same players, stacks and button.
    """

    def __init__(self, runtime: Any, shoe: Any, seed: int, pace: float, fault_rate: float, hands: int = 0,
                 camera: Any = None) -> None:
        from dealer_pi.sim import Fault, Simulator
        from dealer_pi.sim.follow import TableFollower

        self.runtime = runtime
        self.shoe = shoe
        self.camera = camera  # a LiveCamera: cards are seen by the vision pipeline, the truth only checks it
        self.pace = max(pace, 0.05)
        self.hands = hands
        self.sim = Simulator(seed, faults=list(Fault), rate=fault_rate, hands_per_table=HANDS_PER_TABLE, players=(4, 8))
        self.stop_event = threading.Event()
        self.follower = TableFollower(runtime.journal, lambda: THINK_S / self.pace, self.stop_event)
        self.thread = threading.Thread(target=self._run, name="simulator", daemon=True)
        self.current: Any = None  # the simulated table being played
        self.done = 0  # hands played to their end on the tables before ``current``
        self.redeals = 0  # hands dealt again because the table went off the simulation's script
        self.log = logging.getLogger("dealer_pi.demo")

    @property
    def played(self) -> int:
        return self.done + (self.current.played if self.current is not None else 0)

    def start(self) -> "SimDriver":
        self.thread.start()
        return self

    def stop(self) -> None:
        self.stop_event.set()
        self.thread.join(timeout=5)

    def _sleep(self, seconds: float) -> bool:
        return self.stop_event.wait(seconds / self.pace)

    def _enough(self) -> bool:
        return bool(self.hands) and self.played >= self.hands

    def _run(self) -> None:
        from dealer_pi.engine.errors import EngineError
        from dealer_pi.sim import OffScript

        while not self.stop_event.is_set() and not self._enough():
            table = self.current or self._new_table()
            if table is None:
                continue
            self.current = table
            try:
                following = self._play(table)
            except (OffScript, EngineError) as exc:
                following = self._redeal(str(exc))
            self.done += table.played
            self.current = following
            if following is None and not self._enough() and self._sleep(3):
                return

    def _new_table(self) -> Any:
        """New players at the clock's blinds (TABLE-LEVELS), for the first table and after a bust-out."""
        from dealer_pi.engine.errors import EngineError

        level = self.runtime.clock_view()["current"]
        if level:
            self.sim.blinds = (level["small_blind"], level["big_blind"])
        table = self.sim.table()
        setup = table.setup.to_dict()
        setup["names"] = {s: PLAYERS[int(s) - 1] for s in setup["seats"]}
        try:
            self.runtime.submit("setup", {"setup": setup, "void_hand": True})
        except EngineError as exc:
            self.log.warning("demo setup refused: %s", exc)
            self._sleep(2)
            return None
        self.follower.reset()
        return table

    def _redeal(self, why: str) -> Any:
        """The table went where the simulation cannot follow: this hand is dealt again from the
        table as it is (same players, the stacks and button it started with), not a new table."""
        from dealer_pi.engine.errors import EngineError
        from dealer_pi.engine.observations import DealerDeclaration, Declaration
        from dealer_pi.sim.follow import SOURCE

        self.runtime.report(SOURCE, f"the simulated dealer deals this hand again ({why})")
        try:
            if not self.runtime.table.running:  # between hands: the next one is the one dealt again
                self._submit(DealerDeclaration(Declaration.NEW_HAND))
            setup = self._hand_setup()
            self.runtime.submit("setup", {"setup": setup, "void_hand": True})
        except EngineError as exc:
            self.log.warning("the demo cannot deal the hand again (%s): a new table", exc)
            return None
        self.follower.reset()
        self.redeals += 1
        return self.sim.table_from(_table_setup(setup))

    def _play(self, table: Any) -> Any:
        """Play ``table`` until it is over (None) or the runtime moved it on to a new level (the
        simulated table that goes on from there)."""
        from dealer_pi.engine.observations import (
            AlertDecision, CardLeft, CardSeen, DealerDeclaration, Declaration, ShoeDraw,
        )

        table.decide = self.follower.decide  # the bots' turns: a visitor may act instead
        if self.camera is not None:
            self.camera.new_table(table.unseen, self.stop_event)
        for index, obs in enumerate(table.observations()):
            if self.stop_event.is_set():
                return None
            if self.camera is not None:
                self.camera.play(obs, index, self.stop_event)  # the felt moves; a card waits for the camera
                if isinstance(obs, (CardSeen, CardLeft)):
                    continue  # the camera reported it (or missed it): the simulator's word is not sent
            if isinstance(obs, ShoeDraw):
                self._sleep(0.35)
                self.follower.check()
                self._draw(obs)
                continue
            if isinstance(obs, DealerDeclaration) and obs.declare is Declaration.NEW_HAND:
                if self._enough():
                    return None
                self._sleep(4.0)  # the overlay shows the winner for a moment
            elif isinstance(obs, (CardSeen, CardLeft)):
                self._sleep(0.15)
            elif isinstance(obs, (DealerDeclaration, AlertDecision)):
                self._sleep(3.0)  # the dealer reads the alert before acting on it
            # (a bot's PlayerAction goes at once: it has thought while the follower watched the tablet)
            self.follower.check()
            before = len(self.runtime.open_alerts())
            seq = self._submit(obs)["seq"]
            if isinstance(obs, DealerDeclaration) and obs.declare is Declaration.NEW_HAND and self._releveled(seq):
                self.follower.reset()
                return self.sim.table_from(_table_setup(self._hand_setup()))
            if len(self.runtime.open_alerts()) > before:
                self._sleep(3.0)
        return None

    def _submit(self, obs: Any) -> Any:
        """An entry of the simulated dealer or a bot, under the simulator's name (not the tablet's)."""
        from dealer_pi.sim.follow import SOURCE

        if obs.source not in ("shoe", "camera"):
            obs = dataclasses.replace(obs, source=SOURCE)
        return self.runtime.submit("observation", obs)

    def _releveled(self, seq: int) -> bool:
        """Did the runtime deal the new hand at a new level (TABLE-LEVELS)? The level is journaled
        as its own entry just before the "new hand"."""
        entry = next(iter(self.runtime.journal.entries_after(seq - 2)), None)
        return entry is not None and entry.kind == "observation" and entry.body.get("type") == "level"

    def _hand_setup(self) -> dict[str, Any]:
        """The running hand as a setup: same players, the stacks and button it started with, its blinds."""
        table = self.runtime.table
        hand = table.hand_state().setup
        sb, bb, ante = table.next_level()
        return dict(table.setup_dict(), button=hand.button, blinds=[sb, bb], ante=ante,
                    seats={str(s.seat): s.stack for s in hand.seats},
                    names={str(s.seat): s.name for s in hand.seats if s.name})

    def _draw(self, obs: Any) -> None:
        """Through the virtual shoe's pseudo-terminal and the real serial decoder; wait until it is
        journaled, so that the card's landing is not overtaken on the queue."""
        before = self.runtime.accepted
        self.shoe.draw(obs.card)
        deadline = time.monotonic() + 5
        while self.runtime.accepted == before and time.monotonic() < deadline and not self.stop_event.is_set():
            time.sleep(0.005)
        if self.runtime.accepted == before:
            # The shoe link is down: tell the engine directly so the demo goes on.
            self.runtime.submit("observation", obs)


def _table_setup(setup: dict[str, Any]) -> Any:
    from dealer_pi.engine.table_session import TableSetup

    return TableSetup.from_dict(setup)


def attach_simulated_camera(assistant: Any, config: Any, base: Path) -> Any:
    """The overhead camera over the simulated table, through the same pipeline a real camera uses."""
    from dealer_pi.runtime.attach import attach_camera
    from dealer_pi.sim.live_camera import LiveCamera

    camera = LiveCamera()
    try:
        assistant.on_stop(attach_camera(assistant.runtime, config, base, source=camera, label="simulated table",
                                        on_observation=camera.saw))
    except Exception as exc:  # the demo runs on the simulator's own reports rather than not at all
        assistant.runtime.devices.update("camera", source="simulated table", fps=0.0, calibration="none",
                                         state="failed", detail=str(exc))
        return None
    assistant.on_stop(camera.close)
    return camera


def run(args: argparse.Namespace) -> int:
    from dealer_pi.config import config_from_dict
    from dealer_pi.hardware.virtual_shoe import VirtualShoe
    from dealer_pi.runtime.attach import attach_controls, attach_serial_shoe
    from dealer_pi.runtime.wiring import Assistant

    logging.basicConfig(level=logging.WARNING, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    temporary = not args.state_dir
    base = Path(tempfile.mkdtemp(prefix="dealer-pi-demo-") if temporary else args.state_dir).resolve()
    base.mkdir(parents=True, exist_ok=True)
    dealer, producer = "dealer-" + secrets.token_urlsafe(6), "producer-" + secrets.token_urlsafe(6)
    from dealer_pi.sim.camera_table import camera_settings

    config = config_from_dict({
        "camera": camera_settings(base),
        "table": {"name": "Demo table"},
        "shoe": {"kind": "serial", "port": str(base / "shoe")},
        "gpio": {"buttons": True, "led_kind": "rgb", "buzzer_kind": "active"},
        "web": {"host": args.host, "port": args.port, "dealer_token": dealer, "producer_token": producer,
                "stream_delay_s": args.delay, "audit_log": "audit.log"},
        "journal": {"path": "journal.sqlite3"},
    })
    shoe = VirtualShoe(link=base / "shoe", shoe_id="DEMO-SHOE", heartbeat_s=0.5).start()
    try:
        assistant = Assistant.from_config(config, base, attach=False)
    except OSError as exc:
        shoe.unplug()
        if temporary:
            shutil.rmtree(base, ignore_errors=True)
        print(f"dealer-pi demo: cannot serve on {args.host}:{args.port}: {exc}", file=sys.stderr)
        return 2
    runtime = assistant.runtime
    assistant.on_stop(shoe.unplug)
    assistant.on_stop(attach_serial_shoe(runtime, config, base, port=str(base / "shoe")))
    try:
        # No GPIO on a laptop: the buttons and the light run on gpiozero's mock pins, and the
        # dashboard shows which pattern the light would show.
        from gpiozero.pins.mock import MockFactory, MockPWMPin

        for closer in attach_controls(runtime, config, pin_factory=MockFactory(pin_class=MockPWMPin)):
            assistant.on_stop(closer)
    except Exception as exc:  # the demo runs without the mock light rather than not at all
        logging.getLogger("dealer_pi.demo").warning("mock light and buttons unavailable: %s", exc)
    camera = None if args.no_camera else attach_simulated_camera(assistant, config, base)
    runtime.submit("clock", {"action": "set_levels", "levels": [dict({"ante": 0, "break": False}, **lv) for lv in LEVELS]})
    runtime.submit("clock", {"action": "start"})
    seed = args.seed if args.seed is not None else secrets.randbelow(2**31)
    driver = SimDriver(runtime, shoe, seed, args.pace, args.fault_rate, args.hands, camera).start()
    assistant.on_stop(driver.stop)
    if args.hands:
        def stop_when_played() -> None:
            driver.thread.join()
            assistant.stop()

        threading.Thread(target=stop_when_played, daemon=True).start()
    assistant.serve_forever(lambda: print(banner(assistant.server.url, seed, dealer, producer, args.delay,
                                                 base / "journal.sqlite3"), flush=True))
    keep = not temporary or bool(args.hands)  # a run of N hands is made to be looked at afterwards
    print(summary(driver, base / "journal.sqlite3", keep), flush=True)
    if not keep:
        shutil.rmtree(base, ignore_errors=True)
    return 0


def banner(url: str, seed: int, dealer: str, producer: str, delay: int, journal: Path) -> str:
    return f"""
dealer-pi demo: a simulated table (seed {seed}), served on {url}

  Dealer tablet     {url}/dealer?token={dealer}
  Table setup       {url}/setup?token={dealer}
  Live overlay      {url}/overlay/live?token={producer}   (producer: hole cards at once, audited)
  Public overlay    {url}/overlay   (hole cards only after the {delay} s stream delay)
  Tournament clock  {url}/clock
  Rule catalogue    {url}/rules
  API               {url}/api/openapi.json

  dealer token:   {dealer}
  producer token: {producer}
  journal:        {journal}

Play along: tap Fold, Call, Raise... on the tablet while a bot thinks, and that seat's action is
yours; the bots play on from it (a seat you played waits up to 30 s for you next time).

Press Ctrl+C to stop.
"""


def summary(driver: SimDriver, journal: Path, kept: bool) -> str:
    """The closing line: what was played and where the journal is."""
    extra = [f"{driver.follower.followed} action(s) from the tablet"] if driver.follower.followed else []
    if driver.redeals:
        extra.append(f"{driver.redeals} hand(s) dealt again after a tablet entry the bots could not follow")
    played = f"{driver.played} hand(s) played" + (f" ({', '.join(extra)})" if extra else "")
    if kept:
        return f"dealer-pi demo: {played}; journal: {journal} (dealer-pi export --journal {journal} --phh DIR)"
    return f"dealer-pi demo: {played}; the journal was in a temporary folder and is removed (keep it with --state-dir DIR)"
