"""A recorded session played again through the whole runtime: the table's video and its shoe log.

A recorded session is what a table's sensors and dealer produced, on one clock:

* the overhead camera's video (any file OpenCV reads; frame times from the file);
* the smart shoe's log: the DPS/1 lines as the shoe sent them (``$12,DRAW,5120,Kd*06``;
  ``hardware/shoe-protocol.md``), its ``<ms>`` clock set against the video's by an offset
  (the shoe's reading when the video started; 0 when both started together);
* the table's setup (the JSON ``/api/setup`` takes) and, optionally, the dealer's entries as
  JSON lines of observations (actions, declarations, alert decisions) stamped on the video's clock.

:func:`replay_session` feeds them to a :class:`~dealer_pi.runtime.engine_thread.Runtime` in
time order: the shoe's lines through the DPS/1 decoder and sequencer, every frame through the
vision pipeline ``[camera]`` describes (no frame is dropped in a replay), the dealer's entries
as the tablet would give them. The journal it writes is an ordinary one (``dealer-pi export``
reads it), and the cards whose names became certain leave their pictures beside it
(:mod:`dealer_pi.runtime.teacher`); :func:`hand_summaries` says what each hand came to.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from dealer_pi.config import CameraSection
from dealer_pi.engine.errors import InputError
from dealer_pi.engine.observations import Observation, ShoeDraw, observation_from_dict
from dealer_pi.hardware import dps1

from .engine_thread import Runtime

DEALER_TYPES = ("action", "chips", "dealer", "decision", "card_seen")


@dataclass(frozen=True)
class Timed:
    ts_ms: int
    obs: Observation


@dataclass
class ReplayResult:
    frames: int = 0
    bad_frames: int = 0
    camera: int = 0  # observations the camera made
    shoe: int = 0  # draws read from the shoe log
    dealer: int = 0
    problems: list[str] = field(default_factory=list)  # shoe-log problems and refused inputs
    hands: list[dict[str, Any]] = field(default_factory=list)


def read_shoe_log(path: str | Path, offset_ms: int = 0, registration: Any = None) -> tuple[list[Timed], list[str]]:
    """The draws of a DPS/1 log on the video's clock, and every problem the decoder found.

    >>> import tempfile, os
    >>> p = os.path.join(tempfile.mkdtemp(), "shoe.log")
    >>> _ = open(p, "wb").write(dps1.encode_frame(0, "HELLO", "1", "fw", "S1") + dps1.encode_frame(1, "DRAW", "1500", "Kd")
    ...                        + b"$2,DRAW,1900,Qs*00\\n" + dps1.encode_frame(3, "DRAW", "2400", "?"))
    >>> draws, problems = read_shoe_log(p, offset_ms=1000)
    >>> [(d.ts_ms, str(d.obs.card)) for d in draws]
    [(500, 'Kd'), (1400, 'None')]
    >>> problems[0].startswith("line 3: bad checksum")
    True
    """
    from dealer_pi.hardware.sequencer import Sequencer
    from dealer_pi.hardware.serial_shoe import SerialShoe

    p = Path(path)
    try:
        data = p.read_bytes()
    except OSError as exc:
        raise InputError(str(p), f"cannot read the shoe log: {exc.strerror or exc}") from exc
    naming = SerialShoe(str(p), registration=registration)  # never started: only its card lookup is used
    decoder, sequencer = dps1.Decoder(), Sequencer()
    draws: list[Timed] = []
    problems: list[str] = []
    for n, line in enumerate(data.splitlines(keepends=True), 1):
        frames: list[dps1.Frame] = []
        for item in decoder.feed(line):
            if isinstance(item, dps1.Issue):
                problems.append(f"line {n}: {item.reason.value}: {item.detail}")
            elif isinstance(item, dps1.Frame):
                step = sequencer.accept(item, 0)
                if step.send:  # a gap: nobody is there to resend, so it is given up at once
                    step.deliver += sequencer.tick(10**12).deliver
                problems += [f"line {n}: {i.reason.value}: {i.detail}" for i in step.issues]
                frames += step.deliver
        for frame in frames:
            try:
                msg = dps1.interpret(frame)
            except dps1.FrameError as exc:
                problems.append(f"line {n}: {exc}")
                continue
            if isinstance(msg, dps1.Draw):
                card = naming.card_of(msg)
                ts = max(1, msg.ms - offset_ms)
                draws.append(Timed(ts, ShoeDraw(card, "shoe", ts)))
    return draws, problems


def read_dealer_inputs(path: str | Path) -> list[Timed]:
    """The dealer's entries: one observation per line (JSON), each with ``ts_ms`` on the video's clock."""
    p = Path(path)
    try:
        lines = p.read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError) as exc:
        raise InputError(str(p), f"cannot read the dealer's entries: {exc}") from exc
    out: list[Timed] = []
    for n, line in enumerate(lines, 1):
        if not line.strip():
            continue
        where = f"{p.name}:{n}"
        try:
            data = json.loads(line)
        except json.JSONDecodeError as exc:
            raise InputError(where, f"not JSON: {exc.msg}") from exc
        if not isinstance(data, Mapping) or data.get("type") not in DEALER_TYPES:
            raise InputError(f"{where}.type", "must be one of " + ", ".join(DEALER_TYPES)
                             + " (draws come from the shoe log, sightings from the video)")
        if data.get("source") in ("camera", "shoe"):
            raise InputError(f"{where}.source", "the camera's and the shoe's reports come from the video and the shoe log")
        obs = observation_from_dict(data, where)
        if obs.ts_ms <= 0:
            raise InputError(f"{where}.ts_ms", "every entry needs its time on the video's clock (ms, above 0)")
        out.append(Timed(obs.ts_ms, obs))
    return out


def _merge(*streams: Iterable[Timed]) -> list[Timed]:
    """One stream in time order; at the same millisecond the shoe before the dealer (stable)."""
    return sorted((t for s in streams for t in s), key=lambda t: t.ts_ms)


def replay_session(
    video: str | Path, shoe_log: str | Path, setup: Mapping[str, Any], journal: str | Path, *,
    dealer: Iterable[Timed] = (), camera: CameraSection | None = None, base_dir: str | Path | None = None,
    shoe_offset_ms: int = 0, registration: Any = None,
) -> ReplayResult:
    """Play the recording into a new journal at ``journal``; returns what came of it."""
    if Path(journal).exists():
        raise InputError(str(journal), "the replay writes a new journal: this file exists already")
    from dealer_pi.vision.pipeline import pipeline_from_config
    from dealer_pi.vision.sources import VideoCaptureSource

    camera = camera or CameraSection()
    seats = max(int(s) for s in setup.get("seats", {"9": 0}))
    pipeline, _ = pipeline_from_config(camera, max(seats, 9), base_dir)
    draws, problems = read_shoe_log(shoe_log, shoe_offset_ms, registration)
    source = VideoCaptureSource(str(video), is_file=True)
    dealer = list(dealer)
    pending = _merge(draws, dealer)
    result = ReplayResult(shoe=len(draws), dealer=len(dealer), problems=problems)
    clock = [0]
    runtime = Runtime(journal, setup, stream_delay_s=0, now_ms=lambda: clock[0])
    from dealer_pi.vision.examples import ExampleStore, examples_dir

    from .teacher import TableTeacher

    # A replay learns from the table as the live run did: examples go beside its journal.
    runtime.teacher = TableTeacher(ExampleStore(examples_dir(journal)), pipeline.crops)
    runtime.start()
    try:
        k = 0
        for ts, frame in source.frames():
            while k < len(pending) and pending[k].ts_ms < ts:
                clock[0] = pending[k].ts_ms
                runtime.put(pending[k].obs)
                k += 1
            clock[0] = ts
            result.frames += 1
            try:
                made = pipeline.process(ts, frame)
            except InputError:
                result.bad_frames += 1
                continue
            for obs in made:
                runtime.put(obs)  # a replay has all the time it needs: nothing is dropped
            result.camera += len(made)
        for t in pending[k:]:
            clock[0] = t.ts_ms
            runtime.put(t.obs)
        runtime.submit("refresh", None, timeout=60)  # behind everything queued: all of it is applied
        result.problems += [f"{n['source']}: {n['message']}" for n in runtime.notices]
    finally:
        runtime.stop()
        source.close()
    from .journal import Journal

    j = Journal(journal)
    try:
        result.hands = hand_summaries(ev.body for ev in j.iter_events(0, j.last_event_id()))
    finally:
        j.close()
    return result


def hand_summaries(events: Iterable[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """What each hand came to, from its events in their JSON form: the board, the hands shown,
    the pots paid, the alerts (rule and verdict) and whether it was a misdeal.

    >>> hand_summaries([{"type": "hand_started"}, {"type": "board_dealt", "cards": ["Ah", "Kd", "2c"]},
    ...                 {"type": "pot_awarded", "pot": 0, "amount": 30, "shares": [[2, 30]]},
    ...                 {"type": "hand_ended", "stacks": [[1, 90], [2, 110]], "misdeal": False}])
    [{'board': ['Ah', 'Kd', '2c'], 'shown': {}, 'pots': [[[2, 30]]], 'alerts': [], 'misdeal': False, 'stacks': [[1, 90], [2, 110]]}]
    """
    hands: list[dict[str, Any]] = []
    cur: dict[str, Any] | None = None
    for ev in events:
        kind = ev.get("type")
        if kind == "hand_started":
            cur = {"board": [], "shown": {}, "pots": [], "alerts": [], "misdeal": False, "stacks": None}
            continue
        if cur is None:
            continue
        if kind == "board_dealt":
            cur["board"] += list(ev["cards"])
        elif kind == "hand_shown":
            cur["shown"][str(ev["seat"])] = list(ev["cards"])
        elif kind == "pot_awarded":
            cur["pots"].append([list(s) for s in ev["shares"]])
        elif kind == "alert_raised":
            cur["alerts"].append(f"{ev['rule']}/{ev['verdict']}")
        elif kind == "hand_ended":
            cur["misdeal"] = bool(ev.get("misdeal"))
            cur["stacks"] = [list(s) for s in ev["stacks"]]
            hands.append(cur)
            cur = None
    return hands


def events_of(session: Any) -> Iterator[dict[str, Any]]:
    """A :class:`~dealer_pi.engine.table_session.TableSession`'s events in their JSON form."""
    from dealer_pi.engine.table_session import event_to_json

    for e in session.events:
        yield event_to_json(e)
