"""Milliseconds per live frame with NumPy's BLAS on one thread (as the ``dealer-pi`` command sets it)
against BLAS left to start a thread per core, each in its own process, taking turns.

    PYTHONPATH=. python benchmarks/blas_threads.py [--rounds 3] [--frames 20]

Each round runs the camera's detector over the same 1280x720 frames (the 10-card table of
``vision_frame.py``) once in a process with ``OPENBLAS_NUM_THREADS=1`` and once in a process
without it, and checks that both found the same cards, to the last bit. The gap depends on what
else the machine is doing: the load average is printed with the figures.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from dealer_pi.threads import BLAS_THREADS  # noqa: E402

CHILD = """
import hashlib, json, sys, time
import numpy  # first: BLAS takes its threads from the environment as this process was given it
sys.path.insert(0, 'benchmarks')
import cv2
import vision_frame as v
from dealer_pi.vision.detect import Detector
cv2.setNumThreads(1)
frames = [v.render_table_frame(v.TABLE, seed=s) for s in range(int(sys.argv[1]))]
det = Detector(follow_scale=True)
det.detect(frames[0])  # the glyph size to follow; the networks' sessions
times, found = [], hashlib.sha256()
for f in frames:
    t0 = time.perf_counter()
    cards = det.detect(f)
    times.append((time.perf_counter() - t0) * 1000)
    found.update(repr(cards).encode())
print(json.dumps({"ms": sorted(times)[len(times) // 2], "found": found.hexdigest()}))
"""


def child(frames: int, one_thread: bool) -> dict[str, object]:
    env = {k: v for k, v in os.environ.items() if k not in BLAS_THREADS}
    env["PYTHONPATH"] = str(REPO)
    if one_thread:
        env.update({k: "1" for k in BLAS_THREADS})
    out = subprocess.run([sys.executable, "-c", CHILD, str(frames)], capture_output=True, text=True, cwd=REPO, env=env, check=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--frames", type=int, default=20)
    args = ap.parse_args()
    one, many, same = [], [], 0
    for _ in range(args.rounds):
        a, b = child(args.frames, True), child(args.frames, False)
        one.append(float(a["ms"]))  # type: ignore[arg-type]
        many.append(float(b["ms"]))  # type: ignore[arg-type]
        same += a["found"] == b["found"]
    load = os.getloadavg()[0]
    print(f"{args.rounds} rounds of {args.frames} frames, 1280x720, 10 cards; load average {load:.1f}; {os.cpu_count()} cores")
    print(f"one BLAS thread:      {statistics.median(one):6.1f} ms/frame (median of the rounds' medians: {', '.join(f'{x:.1f}' for x in one)})")
    print(f"a BLAS thread a core: {statistics.median(many):6.1f} ms/frame ({', '.join(f'{x:.1f}' for x in many)})")
    print(f"ratio one/many: {statistics.median(one) / statistics.median(many):.2f}x; rounds with the same cards found: {same} of {args.rounds}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
