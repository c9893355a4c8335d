"""``dealer-pi scenario FILE.json...``: run dealing scenarios and print every alert.

A scenario is a table setup (the fields of ``TableSetup.from_dict``: profile,
overrides, structure, blinds, ante, seats, names, button), a list of
``observations`` in their JSON form, and optionally ``title`` and ``expect``:
the alerts (``{"rule", "verdict", "at"}``) and refusals (``{"rejected": RULE,
"at"}``) the run must give, in order. Each alert prints as one JSON line
``{"rule": ..., "verdict": ..., "remedy": ..., "at": N}`` (``at`` = index of
the observation in the file); an observation the rules refuse prints
``{"rejected": RULE, "message": ..., "at": N}`` (``INPUT`` for input that
cannot apply, like deciding an alert that is not open) and the run goes on.

Exit status: 0; 1 with ``--check`` when the output differs from ``expect``;
2 when a file cannot be read (the message names the field).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from dealer_pi.engine.errors import InputError, RuleViolation
from dealer_pi.engine.monitor.alerts import AlertRaised, Verdict
from dealer_pi.engine.observations import Observation, observation_from_dict
from dealer_pi.engine.table_session import SETUP_FIELDS, TableSession, TableSetup
from dealer_pi.engine.validate import is_whole

NAME = "scenario"
HELP = "run a dealing scenario (JSON) and print each alert as a JSON line"
OWN_FIELDS = ("title", "observations", "expect")
VERDICTS = tuple(v.value for v in Verdict)
RULE_PREFIXES = ("DEAL-", "BET-", "POT-", "TABLE-")


@dataclass(frozen=True)
class Scenario:
    setup: TableSetup
    observations: tuple[Observation, ...]
    expect: tuple[dict[str, Any], ...] | None
    title: str = ""


def scenario_from_dict(data: Any, where: str = "scenario") -> Scenario:
    """Check a scenario document; every error names the field (``observations[3].card``)."""
    if not isinstance(data, Mapping):
        raise InputError(where, "must be a JSON object")
    unknown = sorted(set(data) - set(SETUP_FIELDS) - set(OWN_FIELDS))
    if unknown:
        raise InputError(unknown[0], "unknown field (known: " + ", ".join((*SETUP_FIELDS, *OWN_FIELDS)) + ")")
    setup = TableSetup.from_dict({k: v for k, v in data.items() if k in SETUP_FIELDS}, where="")
    raw = data.get("observations")
    if not isinstance(raw, list):
        raise InputError("observations", "is required: a list of observations")
    observations = tuple(observation_from_dict(o, f"observations[{i}]") for i, o in enumerate(raw))
    title = data.get("title", "")
    if not isinstance(title, str):
        raise InputError("title", "must be a string")
    expect = data.get("expect")
    if expect is not None:
        expect = tuple(_expectation(e, f"expect[{i}]", len(observations)) for i, e in enumerate(_list(expect)))
    return Scenario(setup, observations, expect, title)


def _list(v: object) -> list[Any]:
    if not isinstance(v, list):
        raise InputError("expect", "must be a list of expected alerts")
    return v


def _expectation(e: object, where: str, n: int) -> dict[str, Any]:
    if not isinstance(e, Mapping):
        raise InputError(where, 'must be an object like {"rule": ..., "verdict": ..., "at": N}')
    keys = {"rejected", "at"} if "rejected" in e else {"rule", "verdict", "at"}
    extra = sorted(set(e) - keys)
    if extra:
        raise InputError(f"{where}.{extra[0]}", "unknown field (known: " + ", ".join(sorted(keys)) + ")")
    for k in sorted(keys):
        if k not in e:
            raise InputError(f"{where}.{k}", "is required")
    at = e["at"]
    if not is_whole(at) or at >= n:
        raise InputError(f"{where}.at", f"must be an observation index 0..{n - 1}, got {at!r}")
    if "verdict" in e and e["verdict"] not in VERDICTS:
        raise InputError(f"{where}.verdict", "must be one of " + ", ".join(VERDICTS))
    for k in ("rule", "rejected"):
        if k in e and (not isinstance(e[k], str) or not (e[k] == "INPUT" or e[k].startswith(RULE_PREFIXES))):
            raise InputError(f"{where}.{k}", f"must be a rule ID like DEAL-FIRST-EXPOSED, got {e[k]!r}")
    return dict(e)


def load_scenario(path: str | Path) -> Scenario:
    """Read and check a scenario file; errors start with the file name."""
    p = Path(path)
    try:
        data = json.loads(p.read_text(encoding="utf-8"))
    except OSError as exc:
        raise InputError(str(p), f"cannot read: {exc.strerror}") from None
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise InputError(str(p), f"not valid JSON: {exc}") from None
    try:
        return scenario_from_dict(data)
    except InputError as exc:
        raise InputError(f"{p}: {exc.where}" if exc.where else str(p), exc.message) from None


def run_scenario(sc: Scenario) -> list[dict[str, Any]]:
    """Feed every observation; the alerts and refusals, ``at`` counted in the file's list."""
    session = TableSession(sc.setup)
    index_of: list[int] = []  # session log position -> file position
    lines: list[dict[str, Any]] = []
    for i, obs in enumerate(sc.observations):
        try:
            events = session.feed(obs)
        except RuleViolation as exc:
            lines.append({"rejected": exc.rule, "message": exc.message, "at": i})
            continue
        except InputError as exc:
            lines.append({"rejected": "INPUT", "message": str(exc), "at": i})
            continue
        index_of.append(i)
        for e in events:
            if isinstance(e, AlertRaised):
                at = index_of[e.at] if e.at < len(index_of) else i
                lines.append({"rule": e.rule, "verdict": e.verdict.value, "remedy": e.remedy, "at": at})
    return lines


def differences(sc: Scenario, lines: list[dict[str, Any]]) -> list[str]:
    """What differs between the run and the file's ``expect`` (empty when they agree)."""
    if sc.expect is None:
        return ["the file has no 'expect' list"]
    got = [{k: v for k, v in line.items() if k not in ("remedy", "message")} for line in lines]
    want = list(sc.expect)
    out = [f"missing {json.dumps(w)}" for w in want if w not in got]
    out += [f"unexpected {json.dumps(g)}" for g in got if g not in want]
    if not out and got != want:
        out.append("same alerts in another order")
    return out


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("files", nargs="+", metavar="FILE", help="scenario JSON file(s)")
    parser.add_argument("--check", action="store_true", help="compare with each file's 'expect' list")


def run(args: argparse.Namespace) -> int:
    status = 0
    for path in args.files:
        try:
            sc = load_scenario(path)
        except InputError as exc:
            print(f"error: {exc}", file=sys.stderr)
            status = 2
            continue
        lines = run_scenario(sc)
        for line in lines:
            print(json.dumps(line))
        if args.check:
            diff = differences(sc, lines)
            for d in diff:
                print(f"{path}: {d}", file=sys.stderr)
            if diff and status == 0:
                status = 1
    return status
