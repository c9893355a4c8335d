"""A simulated table played through its overhead camera: the camera path, frame by frame.

The simulator's observations move the felt (:mod:`.stagehand`); the overhead camera films
it (:mod:`.overhead`); the real vision pipeline (built by ``pipeline_from_config`` from a
``[camera]`` section, calibrating itself from the table's markers) and its tracker turn
the frames into ``CardSeen``/``CardLeft``. Those, and not the simulator's, go to the
:class:`~dealer_pi.engine.table_session.TableSession` with the shoe's draws and the
players' actions. The simulator's own card observations only check the camera: every
disagreement is kept (:class:`Disagreement`) and logged. Where the camera could not read a
card tabled at the showdown, the simulated dealer names the winners on the tablet before the
next hand, as the tablet asks a dealer to (POT-CARDS-SPEAK); the miss is still a disagreement.

Time is the camera's: one frame every ``1000 / fps`` ms. After each moment the simulated
dealer waits for the camera to register it (at most a few frames), as a dealer waits for
a card to settle before the next one; the shoe's draws and the actions are stamped
between frames. ``tests/sim/test_camera_table.py`` plays whole hands this way.
"""

from __future__ import annotations

import dataclasses
import logging
import tempfile
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

import numpy as np

from dealer_pi.config import CameraSection, config_from_dict
from dealer_pi.engine.cards import Card
from dealer_pi.engine.errors import InputError, RuleViolation
from dealer_pi.engine.monitor.alerts import AlertRaised
from dealer_pi.engine.observations import (
    CardLeft, CardSeen, DealerDeclaration, Declaration, Observation, WinnersNamed, Zone,
)
from dealer_pi.engine.state import Phase
from dealer_pi.engine.table_session import TableSession

from .faults import Fault
from .felt import Felt
from .overhead import FRAME, SEATS, OverheadCamera, layout_toml
from .stagehand import WATCHED, Expect, Stagehand, is_camera
from .table import Injection, SimTable

log = logging.getLogger("dealer_pi.sim.camera")

FPS = 2.0  # the demo's camera: the vision of a Pi-class computer keeps up with 1920x1080 at this rate


class Recorder(Protocol):
    """Gets everything the table's sensors and the dealer produce, stamped on the camera's clock."""

    def frame(self, ts_ms: int, frame: np.ndarray) -> None: ...

    def input(self, ts_ms: int, obs: Observation) -> None: ...


@dataclass(frozen=True)
class CameraAlert:
    alert: AlertRaised
    truth_index: int  # the simulator's observation being played when the camera path raised it
    frame: int  # frames filmed before it


@dataclass(frozen=True)
class Disagreement:
    """The camera and the simulator's truth disagree (no card is named: hole cards may be involved)."""

    truth_index: int
    frame: int
    what: str


@dataclass
class CameraRun:
    table: SimTable
    hands: int = 0
    frames: int = 0  # filmed for this table
    alerts: list[CameraAlert] = field(default_factory=list)
    disagreements: list[Disagreement] = field(default_factory=list)
    refused: list[str] = field(default_factory=list)  # inputs the camera path's table refused
    played_at: list[int] = field(default_factory=list)  # truth index -> frames filmed before it
    deals: list[int] = field(default_factory=list)  # truth indices where a deal ended (new hand, misdeal)


def camera_settings(folder: str | Path, fps: float = FPS) -> dict[str, Any]:
    """The simulated table's ``[camera]`` settings; its layout file is written into ``folder``.
    No card length is set, as at a real table: the pipeline takes it from the markers."""
    path = Path(folder) / "table-layout.toml"
    path.write_text(layout_toml(SEATS), encoding="utf-8")
    return {"source": "none", "layout_file": str(path), "width": FRAME[0], "height": FRAME[1],
            "fps": max(1, round(fps))}


def sim_camera_section(folder: str | Path, **settings: Any) -> CameraSection:
    """:func:`camera_settings` as a checked config section, with ``settings`` changed."""
    return config_from_dict({"camera": {**camera_settings(folder), **settings}}).camera


def enrolled_camera_section(faces: Mapping[Card, np.ndarray], folder: Path) -> tuple[CameraSection, list[str]]:
    """The simulated table's camera settings with the deck of ``faces`` enrolled, as a venue
    enrols its own: each card laid alone on the table and filmed, the pictures named after their
    cards and enrolled as a folder (``dealer-pi vision enrol``). Also the enrolment's problems."""
    import cv2

    from dealer_pi.vision.enrol import enrol_folder
    from dealer_pi.vision.recogniser import Recogniser

    pictures = folder / "pictures"
    pictures.mkdir()
    for card in faces:
        felt = Felt(seed=card.index)
        felt.place("board", card, face_up=True)
        # A camera of its own for each picture: a camera keeps the cards it drew for a felt
        # that has not changed, and every new felt with one card looks unchanged to it.
        cv2.imwrite(str(pictures / f"{card}.png"), OverheadCamera(seed=7, faces=faces).frame(felt, 0))
    enrolment, problems = enrol_folder(Recogniser(), pictures)
    enrolment.save(folder / "deck.npz")
    return sim_camera_section(folder, enrolment_file=str(folder / "deck.npz")), problems


class CameraTable:
    """Plays simulated tables through the felt, the overhead camera and the real vision pipeline."""

    def __init__(self, camera: CameraSection | None = None, *, seed: int = 0, fps: float = FPS,
                 recorder: Recorder | None = None, settle_frames: int = 0,
                 faces: Mapping[Card, np.ndarray] | None = None, enrol: bool = False) -> None:
        """``settle_frames``: frames the dealer lets pass after the camera has reported a moment
        (a recording meant to be replayed keeps that slack, as a real dealer's pace does).
        ``faces``: a printed deck's faces for the overhead camera to film (default: the drawn deck);
        ``enrol``: that deck enrolled first (:func:`enrolled_camera_section`; its problems are
        kept in ``enrol_problems``), where no ``camera`` settings are given."""
        from dealer_pi.vision.pipeline import pipeline_from_config

        if enrol and not faces:
            raise ValueError("enrol needs the printed deck's faces")
        self._tmp: tempfile.TemporaryDirectory[str] | None = None
        self.enrol_problems: list[str] = []
        if camera is None:
            self._tmp = tempfile.TemporaryDirectory(prefix="dealer-pi-sim-")
            camera = sim_camera_section(self._tmp.name)
            if enrol and faces:
                camera, self.enrol_problems = enrolled_camera_section(faces, Path(self._tmp.name))
        self.camera_section = camera
        self.pipeline, _ = pipeline_from_config(camera, SEATS)
        self.camera = OverheadCamera(seed=seed, faces=faces)
        self.interval_ms = int(round(1000 / fps))
        self.recorder = recorder
        self.settle_frames = settle_frames
        self.frame_no = 0
        self._ticks = 0

    # ------------------------------------------------------------ the clock

    def now_ms(self) -> int:
        """When the next frame is filmed."""
        return self.frame_no * self.interval_ms

    def _input_ts(self) -> int:
        """Inputs between two frames get their own milliseconds, in order, after the last frame."""
        self._ticks += 1
        return (self.frame_no - 1) * self.interval_ms + min(self._ticks, self.interval_ms - 1)

    # ------------------------------------------------------------ playing

    def play(self, table: SimTable, session: TableSession | None = None, until: int | None = None) -> CameraRun:
        """Every observation of ``table`` (up to number ``until``); the camera's in place of the
        simulator's card sightings."""
        session = session or TableSession(table.setup)
        run = CameraRun(table)
        first_frame = self.frame_no
        felt = Felt(seed=table.seed)
        hand = Stagehand(felt, table.unseen)
        # The bare table first: the camera sees the last table's cards go before any card lands.
        gone = [t.zone for t in self.pipeline.tracker.tracks if t.reported]
        self.film(felt, Expect(left=gone, min_frames=1, max_frames=8 if gone else 1), lambda o: None)

        def feed(obs: Observation, i: int) -> None:
            try:
                events = session.feed(obs)
            except (RuleViolation, InputError) as exc:
                run.refused.append(f"{type(obs).__name__} refused: {exc}")
                return
            run.alerts += [CameraAlert(e, i, self.frame_no) for e in events if isinstance(e, AlertRaised)]

        def tell(obs: Observation, i: int) -> None:  # the shoe, the dealer and the players: as they happen
            obs = dataclasses.replace(obs, ts_ms=self._input_ts())
            if self.recorder is not None:
                self.recorder.input(obs.ts_ms, obs)
            feed(obs, i)

        # The hand as the simulator dealt it: whom the dealer pays where the camera could not read a
        # tabled card and the showdown waits on the tablet (POT-CARDS-SPEAK).
        truth = TableSession(table.setup)
        for i, obs in enumerate(table.observations()):
            if until is not None and i > until:
                break
            run.played_at.append(self.frame_no)
            expect = hand.apply(obs, i)
            if not is_camera(obs):
                if isinstance(obs, DealerDeclaration) and obs.declare is Declaration.NEW_HAND:
                    for named in winners_unread(session, truth):
                        tell(named, i)
                tell(obs, i)
                if isinstance(obs, DealerDeclaration) and obs.declare in (Declaration.NEW_HAND, Declaration.MISDEAL):
                    run.deals.append(i)
            try:
                truth.feed(obs)
            except (RuleViolation, InputError):
                pass  # refused on the truth path too: the camera path's refusal is what is counted
            while expect is not None:
                got = self.film(felt, expect, lambda o: feed(o, i))
                run.disagreements += [Disagreement(i, self.frame_no, w) for w in compare(expect, got, felt)]
                expect = hand.finish(expect)
        run.hands = table.played
        run.frames = self.frame_no - first_frame
        for d in run.disagreements:
            log.warning("camera and simulator disagree (observation %d, frame %d): %s", d.truth_index, d.frame, d.what)
        return run

    def film(self, felt: Felt, expect: Expect, emit: Callable[[Observation], None]) -> list[Observation]:
        """Frames until the camera has reported what ``expect`` says (between its min and max frames)."""
        want = list(expect.seen)
        leave = list(expect.left)
        got: list[Observation] = []
        for k in range(expect.max_frames):
            for obs in self._shoot(felt, emit):
                got.append(obs)
                tick_off(obs, want, leave)
            if k + 1 >= expect.min_frames and not want and not leave:
                break
        for _ in range(self.settle_frames if expect.max_frames > 1 else 0):
            got += self._shoot(felt, emit)
        return got

    def _shoot(self, felt: Felt, emit: Callable[[Observation], None]) -> list[Observation]:
        """One frame filmed, recorded and looked at: the observations it made (already emitted)."""
        frame = self.camera.frame(felt, self.frame_no)
        felt.hands = []  # a hand passes in one frame
        ts = self.now_ms()
        self.frame_no += 1
        self._ticks = 0
        if self.recorder is not None:
            self.recorder.frame(ts, frame)
        made: list[Observation] = list(self.pipeline.process(ts, frame))
        for obs in made:
            emit(obs)
        return made

    def close(self) -> None:
        if self._tmp is not None:
            self._tmp.cleanup()
            self._tmp = None


def winners_unread(session: TableSession, truth: TableSession) -> list[WinnersNamed]:
    """What a dealer names on the tablet when the showdown waits on a card the camera did not read:
    the winners of each pot still unpaid, as the simulator's hand paid it."""
    st = session.hand
    if st.phase is not Phase.SHOWDOWN or not truth.hand.is_complete:
        return []
    paid = {a.pot for a in st.awards}
    return [WinnersNamed(a.pot, tuple(seat for seat, _ in a.shares)) for a in truth.hand.awards if a.pot not in paid]


def tick_off(obs: Observation, want: list[tuple[str, bool, Any]], leave: list[str]) -> None:
    """Strike off what ``obs`` reports from the awaited sightings and departures."""
    if isinstance(obs, CardSeen):
        for w in want:
            if w[0] == str(obs.zone) and w[1] == obs.face_up:
                want.remove(w)
                return
    elif isinstance(obs, CardLeft) and str(obs.zone) in leave:
        leave.remove(str(obs.zone))


def compare(expect: Expect, got: list[Observation], felt: Felt | None = None) -> list[str]:
    """What the camera got wrong against the truth of one moment, in words without card names.

    >>> from dealer_pi.engine.cards import Card
    >>> board = Zone.parse("board")
    >>> compare(Expect([("board", True, Card.parse("Ah"))]), [CardSeen(board, True, Card.parse("Ah"))])
    []
    >>> compare(Expect([("board", True, Card.parse("Ah"))]), [CardSeen(board, True, None), CardSeen(Zone.parse("burn"), False)])
    ['the card face up at board was not named', 'reported a card face down at burn that the simulator did not put there']

    A sighting of the awaited card is its match, whatever came before it in the same zone (a
    seat's other card, named late at a showdown, is no misnamed card):

    >>> seat = Zone.parse("seat:9")
    >>> compare(Expect([("seat:9", True, Card.parse("9s"))]), [CardSeen(seat, True, Card.parse("Qd")), CardSeen(seat, True, Card.parse("9s"))])
    ['reported a card face up at seat:9 that the simulator did not put there']
    """
    out: list[str] = []
    seen = [o for o in got if isinstance(o, CardSeen) and Zone.parse(str(o.zone)).kind in WATCHED]
    for zone, face_up, card in expect.seen:
        side = "face up" if face_up else "face down"
        here = [o for o in seen if str(o.zone) == zone and o.face_up == face_up]
        match = next((o for o in here if card is not None and o.card == card), here[0] if here else None)
        if match is None:
            out.append(f"missed a card {side} at {zone}")
            continue
        seen.remove(match)
        if card is not None and match.card != card:
            out.append(f"the card {side} at {zone} was " + ("not named" if match.card is None else "named as another card"))
    lying = {(c.zone, c.card) for c in felt.cards if c.face_up} if felt is not None else set()
    for o in seen:
        if o.face_up and o.card is not None and (str(o.zone), o.card) in lying:
            continue  # a card first reported unnamed, named now that the votes allow it
        out.append(f"reported a card {'face up' if o.face_up else 'face down'} at {o.zone} that the simulator did not put there")
    left = [str(o.zone) for o in got if isinstance(o, CardLeft)]
    for zone in expect.left:
        if zone in left:
            left.remove(zone)
        elif Zone.parse(zone).kind == "shoe":
            out.append(f"did not see a card leave {zone}")
    return out


# ------------------------------------------------------------ scoring


@dataclass
class LoopScore:
    """Faults caught through the camera path, with the rule and verdict the simulator expects."""

    hands: int = 0
    frames: int = 0
    caught: list[tuple[Injection, int]] = field(default_factory=list)  # with frames from the fault to its alert
    missed: list[Injection] = field(default_factory=list)
    false_alarms: list[AlertRaised] = field(default_factory=list)
    disagreements: list[Disagreement] = field(default_factory=list)
    refused: list[str] = field(default_factory=list)

    def add(self, other: "LoopScore") -> None:
        for f in dataclasses.fields(self):  # counts add up, lists join
            setattr(self, f.name, getattr(self, f.name) + getattr(other, f.name))

    def injected(self, fault: Fault | None = None) -> int:
        return sum(1 for j in [c for c, _ in self.caught] + self.missed if fault is None or j.fault is fault)


def score_run(run: CameraRun) -> LoopScore:
    """An injected fault is caught by an alert with its rule and verdict raised from the moment it
    was made until the deal ends (the camera needs a few frames to see it); any other alert is a
    false alarm."""
    s = LoopScore(run.hands, run.frames, disagreements=list(run.disagreements), refused=list(run.refused))
    left = list(run.alerts)
    for j in run.table.injections:
        end = next((d for d in run.deals if d >= j.at), len(run.played_at))
        hit = next((a for a in left if a.alert.rule == j.rule and a.alert.verdict.value == j.verdict
                    and j.at <= a.truth_index <= end), None)
        if hit is None:
            s.missed.append(j)
        else:
            left.remove(hit)
            s.caught.append((j, hit.frame - run.played_at[j.at]))
    s.false_alarms = [a.alert for a in left]
    return s
