"""Start-up time of the ``dealer-pi`` command line against a bare Python start.

Times, as wall-clock milliseconds from launch to exit of a fresh process, the
same interpreter running:

* ``python -c pass``: the floor every command pays (interpreter and site);
* ``python -m dealer_pi --help``: the list of commands;
* ``python -m dealer_pi replay FILE``: one hand history through the rules engine
  (a hand from ``tests/data/phh`` that goes to a showdown).

The three take turns within each round, so a busy spell on a shared machine
is charged to all of them. Byte code is compiled once beforehand, into a
temporary ``PYTHONPYCACHEPREFIX`` folder, as it is for an installed package
(``PYTHONDONTWRITEBYTECODE`` would charge compiling every module to every run). Prints the median of each, its overhead over
``python -c pass`` and the ratio, and which heavy modules each command loaded
(want none: OpenCV, NumPy and gpiozero are for the commands that use them).
Run: ``python benchmarks/startup.py [--rounds N] [--phh FILE]``.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_PHH = ROOT / "tests" / "data" / "phh" / "wsop-2023-43-1.phh"
HEAVY = ("cv2", "numpy", "gpiozero")
# Runs the command in-process, then names the heavy modules it left loaded.
PROBE = ("import runpy, sys; sys.argv = ['dealer-pi'] + sys.argv[1:]\n"
         "try: runpy.run_module('dealer_pi', run_name='__main__')\n"
         "except SystemExit: pass\n"
         f"print(' '.join(m for m in {HEAVY!r} if m in sys.modules), file=sys.stderr)")


def cases(phh: Path) -> dict[str, list[str]]:
    py = sys.executable
    return {
        "python -c pass": [py, "-c", "pass"],
        "dealer-pi --help": [py, "-m", "dealer_pi", "--help"],
        "dealer-pi replay FILE": [py, "-m", "dealer_pi", "replay", str(phh)],
    }


def once(cmd: list[str], env: dict[str, str]) -> float:
    t0 = time.perf_counter()
    subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env, cwd=ROOT, check=True)
    return (time.perf_counter() - t0) * 1000


def heavy_modules(args: list[str], env: dict[str, str]) -> str:
    out = subprocess.run([sys.executable, "-c", PROBE, *args], capture_output=True, text=True, env=env, cwd=ROOT)
    return out.stderr.strip().splitlines()[-1] if out.stderr.strip() else ""


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rounds", type=int, default=21, help="runs of each command, taking turns (default 21)")
    ap.add_argument("--phh", type=Path, default=DEFAULT_PHH, help="the hand history 'replay' reads")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory(prefix="dealer-pi-pyc-") as pyc:
        env = dict(os.environ, PYTHONPYCACHEPREFIX=pyc,
                   PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        return measure(args, env)


def measure(args: argparse.Namespace, env: dict[str, str]) -> int:
    todo = cases(args.phh)
    for cmd in todo.values():  # warm the file cache and the .pyc files first
        once(cmd, env)
    times: dict[str, list[float]] = {name: [] for name in todo}
    for _ in range(args.rounds):
        for name, cmd in todo.items():
            times[name].append(once(cmd, env))
    base = statistics.median(times["python -c pass"])
    print(f"{args.rounds} runs each, median wall time from launch to exit ({sys.executable})")
    print(f"  {'python -c pass':<24} {base:7.1f} ms")
    for name in list(todo)[1:]:
        med = statistics.median(times[name])
        heavy = heavy_modules(todo[name][3:], env) or "none"
        print(f"  {name:<24} {med:7.1f} ms   overhead {med - base:6.1f} ms   ratio {med / base:4.2f}x   "
              f"heavy modules loaded: {heavy}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
