"""Milliseconds per 1280x720 overhead frame with 10 cards, on one thread.

    PYTHONPATH=. python benchmarks/vision_frame.py [--frames 30]

Full pipeline: detection (corner-index reading, card regions, face-down),
zones and the tracker, as the vision thread runs it. Reference: the plain
textbook pipeline (grey, adaptive threshold, contours, a perspective warp of
each card-shaped contour), with no recognition at all, timed on the same
frames in the same run, frame by frame in turn with the full pipeline. The
ratio says what reading the cards costs on top.

A camera stream: the simulated overhead camera films a hand being dealt (a card lands every
second, 15 frames a second, sensor noise and mains flicker in every frame), through the pipeline
as the runtime builds it, whose change gate reads a frame only after a change, and then only
where it changed (in full once a second), against the same gate reading those frames in full,
and the same pipeline reading every frame in full, the three taking turns frame by frame.

The pips' check: detection as shipped against the same detection that does not ask a number
card's pips before naming it (``Recogniser(pips=False)``), frame by frame in turn.

The second look: detection as shipped against the same detection that does not read a black
index unsure of its suit again at double size (``Recogniser(second_look=False)``), in turn.

The closer look: detection as shipped, which reads each unnamed face-up card again at double size
(a few a frame, each remembered while the card lies still), against the same detection without
it (``Detector(closer_looks=0)``), frame by frame in turn.

A shadow: detection as shipped, which first looks for a shadow on the table to lift (a share of
the felt's light measured on the felt itself), against the same detection without the look
(``Detector(shadows=False)``), frame by frame in turn; the frames have no shadow, so the cards must
be the same.

The suit glyphs: detection as shipped, which warps a pair's suit glyph only where its rank may
make a read, against the same detection warping every proposed pair's, frame by frame in turn.

The network's own share: every glyph pair the index finder proposes in a
frame goes through the convolutional reader (its ONNX branches in
onnxruntime, as shipped, and the same file in ``cv2.dnn`` for comparison) and
through the two-layer reader it replaced; milliseconds per frame and per card.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from dealer_pi.threads import one_blas_thread  # noqa: E402

one_blas_thread()  # one thread for NumPy's products too, as for OpenCV below

import argparse
import statistics
import time
from collections.abc import Callable

import cv2
import numpy as np

from dealer_pi.engine.cards import Card
from dealer_pi.vision.detect import Detector
from dealer_pi.vision.glyphs import GlyphParams, PairRows, features, find_blobs, hypotheses_from_blobs
from dealer_pi.vision.lit_table import table_pipeline
from dealer_pi.vision.recogniser import READ_FLOOR, REFERENCE_MODEL, IndexModel, Recogniser, glyph_batch
from dealer_pi.vision.pipeline import PixelZones, VisionPipeline, pipeline_from_config
from dealer_pi.vision.render import default_zone_centres, render_table_frame

TABLE = {
    "board": [Card.parse(c) for c in ("Ah", "Kd", "Tc", "7s", "2h")],
    "seat:1": [Card.parse("Qs"), Card.parse("Jh")],
    "seat:5": [Card.parse("9d"), Card.parse("3c")],
    "burn": [None],
}


# A table in the middle of a hand: each seat's two hole cards face down, a burn, the board.
MID_HAND = {
    "board": [Card.parse(c) for c in ("Ah", "Kd", "Tc", "7s", "2h")],
    **{f"seat:{s}": [None, None] for s in (1, 3, 5, 7)},
    "burn": [None],
}


def reference(frame: np.ndarray) -> int:
    grey = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)
    th = cv2.adaptiveThreshold(grey, 255, cv2.ADAPTIVE_THRESH_MEAN_C, cv2.THRESH_BINARY, 51, -10)
    contours, _ = cv2.findContours(th, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    n = 0
    dst = np.float32([[0, 0], [199, 0], [199, 279], [0, 279]])
    for c in contours:
        if cv2.contourArea(c) < 3000:
            continue
        box = cv2.boxPoints(cv2.minAreaRect(c)).astype(np.float32)
        m = cv2.getPerspectiveTransform(box, dst)
        cv2.warpPerspective(frame, m, (200, 280))
        n += 1
    return n


def timed_pair(full: Callable[[np.ndarray], object], ref: Callable[[np.ndarray], object], frames: list[np.ndarray]) -> tuple[list[float], list[float]]:
    """Milliseconds per frame for each, the two taking turns frame by frame.

    On a shared machine the load comes and goes; timing one pipeline after
    the other would charge a busy spell to one of them only.
    """
    out_full: list[float] = []
    out_ref: list[float] = []
    for f in frames:
        for fn, out in ((full, out_full), (ref, out_ref)):
            t0 = time.perf_counter()
            fn(f)
            out.append((time.perf_counter() - t0) * 1000)
    return out_full, out_ref


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--frames", type=int, default=30)
    ap.add_argument("--stream-seconds", type=int, default=14, help="seconds filmed: a card lands each second, 13 in all (0: no stream)")
    args = ap.parse_args()
    cv2.setNumThreads(1)
    frames = [render_table_frame(TABLE, seed=s) for s in range(args.frames)]
    pipe = table_pipeline()
    found = len(pipe.cards(frames[0]))
    ts = iter(range(0, 10**9, 66))
    full, ref = timed_pair(lambda f: pipe.process(next(ts), f), reference, frames)
    full_ms, ref_ms = statistics.median(full), statistics.median(ref)
    print(f"frames: {args.frames} x 1280x720, 10 cards ({found} found in frame 0), cv2 threads = 1, OpenCV {cv2.__version__}")
    print(f"full pipeline:      {full_ms:7.1f} ms/frame (median; p90 {sorted(full)[int(0.9 * len(full))]:.1f})")
    print(f"reference pipeline: {ref_ms:7.1f} ms/frame (grey, adaptive threshold, contours, warp each card)")
    print(f"ratio full/reference: {full_ms / ref_ms:.1f}x")
    mid_hand(args.frames)
    if args.stream_seconds > 0:
        camera_stream(args.stream_seconds)
    option_cost(frames, "pips' check", pips=False)
    option_cost(frames, "second look at unsure black suits", second_look=False)
    closer_cost(frames)
    shadow_cost(frames)
    suit_warp_cost(frames)
    network_cost(frames)
    return 0


def mid_hand(n: int) -> None:
    """A table mid-hand (MID_HAND: 14 cards, 9 of them face down), as shipped against the same
    pipeline that also reads the dark print off card stock (the backs), and the reference."""
    frames = [render_table_frame(MID_HAND, seed=s) for s in range(n)]
    zones = PixelZones(default_zone_centres(1280, 720), 200, 110)
    shipped = VisionPipeline(Detector(follow_scale=True), zones)
    backs = VisionPipeline(Detector(Recogniser(stock_only=False), follow_scale=True), zones)
    for pipe in (shipped, backs):
        pipe.cards(frames[0])  # the glyph size to follow
    def found(pipe: VisionPipeline, frame: np.ndarray) -> list[tuple[str, bool, int, int]]:
        return sorted((str(c.card), c.face_up, round(c.centre[0]), round(c.centre[1])) for c in pipe.cards(frame))

    same = sum(found(shipped, f) == found(backs, f) for f in frames)
    ts = iter(range(0, 10**9, 66))
    got, whole = timed_pair(lambda f: shipped.process(next(ts), f), lambda f: backs.process(next(ts), f), frames)
    _, ref = timed_pair(lambda f: shipped.process(next(ts), f), reference, frames)
    print(f"table mid-hand: {len(MID_HAND['board'])} board cards, 9 face down; {n} frames")
    print(f"  full pipeline:        {statistics.median(got):6.1f} ms/frame (median; p90 {sorted(got)[int(0.9 * len(got))]:.1f}), "
          f"{statistics.median(got) / statistics.median(ref):.1f}x the reference ({statistics.median(ref):.1f} ms)")
    print(f"  reading the backs too: {statistics.median(whole):5.1f} ms/frame; ratio shipped/backs too: "
          f"{statistics.median(got) / statistics.median(whole):.2f}x; frames with the same cards found: {same} of {n}")


def option_cost(frames: list[np.ndarray], what: str, **off: bool) -> None:
    """Detection as shipped against the same detection with one of the reader's checks turned off
    (``off``: the ``Recogniser`` option), taking turns frame by frame."""
    asked, unasked = Detector(follow_scale=True), Detector(Recogniser(**off), follow_scale=True)
    for det in (asked, unasked):
        det.detect(frames[0])  # the glyph size to follow
    def names(det: Detector, frame: np.ndarray) -> list[str]:
        return sorted(str(f.card) for f in det.detect(frame) if f.card is not None)

    differ = sum(names(asked, fr) != names(unasked, fr) for fr in frames)
    on, plain = timed_pair(asked.detect, unasked.detect, frames)
    print(f"{what}: detection {statistics.median(on):.1f} ms/frame against {statistics.median(plain):.1f} without it: "
          f"ratio {statistics.median(on) / statistics.median(plain):.2f}x; frames whose named cards differ: {differ} of {len(frames)}")


def closer_cost(frames: list[np.ndarray]) -> None:
    """Detection as shipped against the same detection without the closer look, in turn."""
    shipped, plain = Detector(follow_scale=True), Detector(follow_scale=True, closer_looks=0)
    for det in (shipped, plain):
        det.detect(frames[0])  # the glyph size to follow
    named = [sum(f.card is not None for f in det.detect(fr)) for det in (shipped, plain) for fr in frames]
    on, off = timed_pair(shipped.detect, plain.detect, frames)
    looks = shipped.closer.looked if shipped.closer is not None else 0
    print(f"closer look at unnamed face-up cards: detection {statistics.median(on):.1f} ms/frame against {statistics.median(off):.1f} "
          f"without it: ratio {statistics.median(on) / statistics.median(off):.2f}x; cards named {sum(named[:len(frames)])} against "
          f"{sum(named[len(frames):])}; {looks} looks in {2 * len(frames) + 1} frames")


def same_cards_cost(frames: list[np.ndarray], what: str, against: str, shipped: Detector, other: Detector) -> None:
    """Detection as shipped against ``other``, the same detection with one step done another way,
    taking turns frame by frame; the cards found must be the same, to the last bit."""
    for det in (shipped, other):
        det.detect(frames[0])  # the glyph size to follow
    same = sum(repr(shipped.detect(fr)) == repr(other.detect(fr)) for fr in frames)
    on, off = timed_pair(shipped.detect, other.detect, frames)
    print(f"{what}: detection {statistics.median(on):.1f} ms/frame against {statistics.median(off):.1f} {against}: "
          f"ratio {statistics.median(on) / statistics.median(off):.3f}x; frames with the same cards, to the last bit: "
          f"{same} of {len(frames)}")


def shadow_cost(frames: list[np.ndarray]) -> None:
    """Detection as shipped, which first looks for a shadow on the table to lift (none here),
    against the same detection without that look."""
    same_cards_cost(frames, "a shadow looked for", "without the look",
                    Detector(follow_scale=True), Detector(follow_scale=True, shadows=False))


class _EverySuitWarped(Recogniser):
    """The reader as it was: every proposed pair's suit glyph warped, read or not."""

    def class_probs(self, pairs: PairRows) -> tuple[np.ndarray, np.ndarray]:
        return self.model.probs(pairs.every_suit(), rank_floor=READ_FLOOR)


def suit_warp_cost(frames: list[np.ndarray]) -> None:
    """Detection as shipped (a suit glyph warped only where its rank may make a read) against the
    same detection warping every pair's suit glyph."""
    same_cards_cost(frames, "suit glyphs warped only where read", "warping every pair's",
                    Detector(follow_scale=True), Detector(_EverySuitWarped(), follow_scale=True))


def camera_stream(seconds: int, fps: int = 15) -> None:
    """The filmed deal through the gated pipeline as shipped (a frame read after a change read only
    where it changed), through the same gate reading such frames in full, and through one reading
    every frame in full, taking turns frame by frame."""
    import tempfile

    from dealer_pi.sim.camera_table import SEATS, sim_camera_section
    from dealer_pi.sim.felt import Felt
    from dealer_pi.sim.overhead import OverheadCamera
    from dealer_pi.vision.change import ChangeGate

    # two face-down cards to each of four seats, then the board
    deal: list[tuple[str, Card | None]] = [(f"seat:{1 + i % 4}", None) for i in range(8)]
    deal += [("board", Card.parse(c)) for c in ("Ah", "Kd", "Tc", "7s", "2h")]
    felt, camera = Felt(seed=5), OverheadCamera(seed=5, size=(1280, 720))
    frames = []
    for n in range(seconds * fps):
        if n % fps == 0 and n // fps < len(deal):
            zone, card = deal[n // fps]
            felt.place(zone, card, card is not None)
        frames.append(camera.frame(felt, n))
    pipes: dict[str, VisionPipeline] = {}
    with tempfile.TemporaryDirectory() as tmp:
        for name in ("gated", "whole", "every"):
            pipes[name], _ = pipeline_from_config(sim_camera_section(tmp), SEATS)
    gated, whole, every = pipes["gated"], pipes["whole"], pipes["every"]
    whole.gate = ChangeGate(fresh=gated.gate.fresh, in_part=False)
    every.gate = ChangeGate(refresh=1, in_part=False)
    made: dict[str, list[object]] = {name: [] for name in pipes}
    ms: dict[str, list[float]] = {name: [] for name in pipes}
    read_ms: dict[str, list[float]] = {name: [] for name in pipes}  # the frames each read
    ts = iter(range(0, 10**9, 1000 // fps))
    for frame in frames:
        t = next(ts)
        for name, pipe in pipes.items():
            reused = pipe.gate.reused
            t0 = time.perf_counter()
            # what the monitor acts on: when, what, where, which face (a read's confidence may differ)
            made[name].extend((o.ts_ms, type(o).__name__, o.zone, getattr(o, "card", None), getattr(o, "face_up", None))
                              for o in pipe.process(t, frame))
            ms[name].append((time.perf_counter() - t0) * 1000)
            if pipe.gate.reused == reused:
                read_ms[name].append(ms[name][-1])
    print(f"camera stream: {len(frames)} frames of a deal at {fps} fps, {camera.size[0]}x{camera.size[1]}, a card landing "
          f"each second; {len(read_ms['gated'])} read by the gate, {gated.part_frames} of them only where they changed")
    for name, what in (("gated", "gated, in part (shipped)"), ("whole", "gated, each read in full"), ("every", "reading every frame")):
        print(f"  {what + ':':27s}{statistics.median(ms[name]):6.1f} ms/frame median, {statistics.mean(ms[name]):6.1f} mean; "
              f"a frame read: {statistics.mean(read_ms[name]):6.1f} mean")
    mean = {name: statistics.mean(v) for name, v in ms.items()}
    print(f"  ratio gated in part/every frame (mean): {mean['gated'] / mean['every']:.2f}x; in part/in full: "
          f"{mean['gated'] / mean['whole']:.2f}x; observations: {len(made['gated'])}, the same as reading every frame: "
          f"{'yes' if made['gated'] == made['every'] else 'NO'}, the same as the gate reading in full: "
          f"{'yes' if made['gated'] == made['whole'] else 'NO'}")


def network_cost(frames: list[np.ndarray], cards: int = 10) -> None:
    """The reader's networks alone, on the pairs each frame's index finder proposes, taking turns per frame."""
    params = GlyphParams()
    rows = []
    for f in frames:
        blobs = find_blobs(f, params)
        rows.append(features(blobs, hypotheses_from_blobs(blobs, params)))
    cnn, mlp = IndexModel.load(), IndexModel.load(REFERENCE_MODEL)
    assert cnn.trunk is not None
    net = cv2.dnn.readNetFromONNX(str(cnn.trunk.path))

    def dnn_probs(x: np.ndarray) -> None:
        net.setInput(glyph_batch(x, 0), "rank_glyphs")
        net.setInput(glyph_batch(x, 1), "suit_glyphs")
        rank, suit = net.forward(["rank_embedding", "suit_embedding"])
        cnn.rank.probs(np.hstack([rank, x[:, -6:]]))
        cnn.suit.probs(np.hstack([suit, x[:, -6:]]))

    runners: tuple[tuple[str, Callable[[np.ndarray], object]], ...] = (
        ("cnn as read", lambda x: cnn.probs(x, rank_floor=READ_FLOOR)),
        ("cnn (onnxruntime)", cnn.probs),
        ("cnn (cv2.dnn)", dnn_probs),
        ("two-layer (numpy)", mlp.probs),
    )
    runs: dict[str, list[float]] = {name: [] for name, _ in runners}
    for x in rows:
        for name, fn in runners:
            t0 = time.perf_counter()
            fn(x)
            runs[name].append((time.perf_counter() - t0) * 1000)
    pairs = statistics.median(len(x) for x in rows)
    print(f"reader networks on the {pairs:.0f} glyph pairs proposed per frame (median), {cards} cards;")
    print("  'cnn as read' is the shipped path (suit branch only where the rank allows a read), the others read every pair:")
    med = {k: statistics.median(v) for k, v in runs.items()}
    for name, ms in med.items():
        print(f"  {name:18s} {ms:6.2f} ms/frame, {ms / cards:.3f} ms/card")
    print(f"ratio cnn onnxruntime / cv2.dnn: {med['cnn (onnxruntime)'] / med['cnn (cv2.dnn)']:.2f}x; "
          f"cnn as read / two-layer: {med['cnn as read'] / med['two-layer (numpy)']:.2f}x")


if __name__ == "__main__":
    raise SystemExit(main())
