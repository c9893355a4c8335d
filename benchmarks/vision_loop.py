"""The camera path over simulated hands: faults caught, false alarms, frames from a fault to its alert.

Each simulated table is played twice in the same run: through the camera path (the felt filmed
from above, the real vision pipeline built by ``pipeline_from_config`` and its tracker making the
card observations; ``dealer_pi.sim.camera_table``) and through the simulator-truth path (the
simulator's own card observations; ``dealer_pi.sim.check``, as ``monitor_sim.py`` does).

1. Clean hands (the four rule profiles in turn): alerts raised, per 1,000 hands (want 0), and
   the camera's disagreements with the simulator's truth.
2. Every dealing fault class injected ``--faults`` times: caught with the right rule and verdict
   (want all), other alerts raised, and the camera frames from the fault to its alert.
3. Cost: frames filmed per hand, vision ms per frame, seconds per hand on each path and their
   ratio, and what the full run (``--hands 1000 --faults 50``: 1,000 clean hands and 1,000
   injected faults, 50 of each class) would take here.

Run: ``PYTHONPATH=. python benchmarks/vision_loop.py [--hands 8] [--faults 1] [--seed 1] [--only extra-hole,misdeal-lock] [--progress] [--deck knoll [--enrol]]``.
``--deck``: the camera films a printed deck design of ``../shared/card-assets`` instead of the drawn deck;
``--enrol``: the reader enrolled first from the camera's picture of each card of it.
The camera path costs seconds per hand on this 2-core machine (most of it the vision pipeline),
so the defaults are a sample; the script prints what the full run would cost.
"""

from __future__ import annotations

import argparse
import dataclasses
import logging
import re
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from dealer_pi.threads import one_blas_thread  # noqa: E402

one_blas_thread()  # as the dealer-pi command does: before NumPy is imported

import numpy as np  # noqa: E402

from dealer_pi.engine.cards import Card  # noqa: E402
from dealer_pi.sim import Fault, Simulator  # noqa: E402
from dealer_pi.sim.camera_table import CameraTable, LoopScore, score_run  # noqa: E402
from dealer_pi.sim.check import Score, play  # noqa: E402
from dealer_pi.sim.table import SimTable  # noqa: E402

PROFILES = ("standard", "roberts", "house-pig", "online")


class Timed:
    """The camera path with the vision pipeline's time counted apart."""

    def __init__(self, seed: int, faces: dict[Card, np.ndarray] | None = None, enrol: bool = False) -> None:
        self.table = CameraTable(seed=seed, faces=faces, enrol=enrol)
        self.vision_s = 0.0
        process = self.table.pipeline.process

        def timed(ts: int, frame: object) -> object:
            t0 = time.process_time()
            try:
                return process(ts, frame)  # type: ignore[arg-type]
            finally:
                self.vision_s += time.process_time() - t0

        self.table.pipeline.process = timed  # type: ignore[method-assign]


def printed_faces(assets: Path, design: str) -> dict[Card, np.ndarray]:
    """A printed deck design's faces (``models/decks.py``; needs ``rsvg-convert``)."""
    sys.path.insert(0, str(ROOT / "models"))
    from decks import faces_by_card

    return faces_by_card(assets, design)


def twin(table: SimTable) -> SimTable:
    """The same table again (same seed, same faults), for the other path."""
    return dataclasses.replace(table, injections=[], unseen={}, played=0)


def both(cam: Timed, table: SimTable) -> tuple[LoopScore, Score, float, float]:
    t0 = time.process_time()
    truth = play(twin(table))
    t1 = time.process_time()
    camera = score_run(cam.table.play(table))
    return camera, truth, time.process_time() - t1, t1 - t0


def clean(cam: Timed, hands: int, seed: int, progress: bool = False) -> tuple[LoopScore, Score, float, float]:
    camera, truth, cs, ts = LoopScore(), Score(), 0.0, 0.0
    per = max(1, hands // len(PROFILES))
    for i, profile in enumerate(PROFILES):
        for k, table in enumerate(Simulator(seed=seed + i, profile=profile, players=(2, 9), hands_per_table=5).tables(per)):
            start = cam.table.frame_no
            c, t, a, b = both(cam, table)
            if c.false_alarms:  # where to look: the table, and the camera's frame count when it began
                print(f"  {len(c.false_alarms)} alert(s) on {profile} table {k} (frames from {start}): "
                      + ", ".join(f"{x.rule}/{x.verdict.value}" for x in c.false_alarms), flush=True)
            camera.add(c)
            truth.add(t)
            cs, ts = cs + a, ts + b
            if progress:  # a long run that is stopped early still says how far it got
                print(f"  {profile} table {k} done: {camera.hands} clean hands so far, {len(camera.false_alarms)} alerts, "
                      f"frame {cam.table.frame_no}", flush=True)
    return camera, truth, cs, ts


def faults(cam: Timed, n: int, seed: int, only: set[Fault] | None = None) -> dict[Fault, tuple[LoopScore, Score]]:
    out: dict[Fault, tuple[LoopScore, Score]] = {}
    for k, fault in enumerate(Fault):
        if only and fault not in only:
            continue  # the same seeds as in a full run: k counts every class
        camera, truth = LoopScore(), Score()
        i = 0
        while truth.injected() < n and i < 50 * n:
            profile = PROFILES[i % len(PROFILES)]
            sim_seed = seed * 100_000 + 997 * k + i
            sim = Simulator(seed=sim_seed, profile=profile, faults=[fault], rate=1.0, players=(3, 6), hands_per_table=2)
            i += 1
            start = cam.table.frame_no
            c, t, _, _ = both(cam, sim.table())
            if c.missed or c.false_alarms:  # where to look: the table, and the camera's frame count when it began
                print(f"  {fault.value} on {profile} table {sim_seed} (frames from {start}): {len(c.missed)} missed"
                      + "".join(f", {x.fault.value} wanted {x.rule}/{x.verdict}" for x in c.missed)
                      + "".join(f", raised {x.rule}/{x.verdict.value}: {x.remedy[:70]}" for x in c.false_alarms), flush=True)
            camera.add(c)
            truth.add(t)
        out[fault] = (camera, truth)
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--hands", type=int, default=8, help="clean hands (default 8; the aim is stated for 1,000)")
    ap.add_argument("--faults", type=int, default=1, help="injections per fault class (default 1)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--progress", action="store_true", help="a line after every clean table (for long runs)")
    ap.add_argument("--only", default="", help="fault classes to inject, comma-separated (default: all), e.g. extra-hole,misdeal-lock")
    ap.add_argument("--deck", default="", help="film a printed deck design of --assets instead of the drawn deck, e.g. knoll "
                    "(the design the reader never learnt from)")
    ap.add_argument("--assets", type=Path, default=ROOT.parent / "shared" / "card-assets")
    ap.add_argument("--enrol", action="store_true", help="with --deck: enrol the deck first, from the camera's own picture "
                    "of each card lying alone on the table, as `dealer-pi vision enrol` does from a folder of them")
    args = ap.parse_args()
    if args.enrol and not args.deck:
        ap.error("--enrol needs --deck")
    try:
        only = {Fault(v) for v in args.only.split(",") if v}
    except ValueError as exc:
        ap.error(f"--only: {exc} (classes: {', '.join(f.value for f in Fault)})")
    logging.basicConfig(level=logging.ERROR)  # the camera's disagreements are counted below, not logged
    faces = printed_faces(args.assets, args.deck) if args.deck else None
    cam = Timed(args.seed, faces, args.enrol)
    if args.enrol:
        problems = cam.table.enrol_problems
        print(f"enrolled from the camera's picture of each of the {len(faces or ())} cards; problems: {len(problems)}")
        for problem in problems[:5]:
            print(f"  {problem}")
    if args.deck:
        print(f"deck: {args.deck}, printed (the drawn deck's backs)")
    start = time.perf_counter()

    camera, truth, cam_s, truth_s = clean(cam, args.hands, 1000 * args.seed, args.progress)
    per_k = 1000 / max(1, camera.hands)
    print(f"clean hands: {camera.hands} (truth path {truth.hands}), {camera.frames} frames")
    print(f"  camera path: {len(camera.false_alarms)} alerts ({len(camera.false_alarms) * per_k:.0f} per 1,000 hands), "
          f"{len(camera.disagreements)} disagreements with the truth, {len(camera.refused)} inputs refused")
    print(f"  truth path:  {len(truth.false_alarms)} alerts (want 0 on both)")
    for a in camera.false_alarms[:8]:
        print(f"    camera alert: {a.rule}/{a.verdict.value}: {a.remedy[:90]}")
    kinds: dict[str, int] = {}
    for d in camera.disagreements:
        what = re.sub(r" at \S+", "", d.what)  # by kind, whatever the zone: "not named" apart from "named as another card"
        kinds[what] = kinds.get(what, 0) + 1
    for what, count in sorted(kinds.items(), key=lambda kv: -kv[1]):
        print(f"    disagreement x{count}: {what}")

    print(f"faults: each class injected {args.faults} time(s), profiles in turn (camera path | truth path)")
    ok = not camera.false_alarms
    lags: list[int] = []
    fault_scores = faults(cam, args.faults, args.seed, only)
    for fault, (c, t) in fault_scores.items():
        frames = [f for _, f in c.caught]
        lags += frames
        lag = f"frames to alert median {statistics.median(frames):.0f} max {max(frames)}" if frames else "no alert"
        print(f"  {fault.value:16} injected {c.injected():3}  caught {len(c.caught):3}  missed {len(c.missed):3}  "
              f"other alerts {len(c.false_alarms):3}  {lag:34} | truth caught {len(t.detected)}/{t.injected()} "
              f"other {len(t.false_alarms)}")
        ok = ok and not c.missed and not c.false_alarms
    if lags:
        print(f"  frames from a fault to its alert, all classes: median {statistics.median(lags):.0f}, "
              f"max {max(lags)} (one frame = {cam.table.interval_ms} ms of the simulated camera)")

    frames = cam.table.frame_no
    hands = camera.hands + sum(c.hands for c, _ in fault_scores.values())
    print("cost:")
    print(f"  {frames} frames for {hands} hands: {frames / max(1, hands):.0f} frames per hand; vision "
          f"{1000 * cam.vision_s / max(1, frames):.0f} ms CPU per 1920x1080 frame")
    print(f"  clean hands: camera path {cam_s / max(1, camera.hands):.2f} s CPU per hand, truth path "
          f"{1000 * truth_s / max(1, truth.hands):.2f} ms per hand: ratio {cam_s / max(truth_s, 1e-9):.0f}x")
    per_hand = (time.perf_counter() - start) / max(1, hands)
    fault_hands = sum(c.hands for c, _ in fault_scores.values()) / max(1, args.faults * len(fault_scores))
    full = per_hand * (1000 + 50 * len(Fault) * fault_hands)
    print(f"  this run: {time.perf_counter() - start:.0f} s; the full run (--hands 1000 --faults 50: 1,000 clean "
          f"hands, 1,000 faults) would take about {full / 3600:.1f} h here")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
