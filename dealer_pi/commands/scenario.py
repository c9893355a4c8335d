"""``dealer-pi scenario FILE.json...``: run table scenarios; print every alert and what the floor checks.

A scenario is a table setup (the fields of ``TableSetup.from_dict``: profile,
overrides, structure, blinds, ante, seats, names, button), a list of
``observations`` in their JSON form, and optionally ``title``, ``expect`` and
``checks``.

``expect`` lists the alerts (``{"rule", "verdict", "at"}``) and refusals
(``{"rejected": RULE, "at"}``) the run must give, in order. ``checks`` says
what the table must look like at a point: ``{"after": N | "end", KEY: VALUE...}``
(``after`` = index of an observation in the file, or the end), with any of
:data:`CHECK_KEYS`: stacks and bets by seat, pots with their eligible seats,
each award with its amount, shares, odd-chip recipients and rake, the rake,
button / small blind / big blind seats, who shows first, who is to act and the
legal actions with their min and max, the hand's result and more. Mappings
are compared on the keys given (``{"1": 990}`` checks seat 1 only), lists and
plain values exactly.

Each alert prints as one JSON line ``{"rule": ..., "verdict": ..., "remedy": ..., "at": N}``
(``at`` = index of the observation in the file); an observation the rules
refuse prints ``{"rejected": RULE, "message": ..., "at": N}`` (``INPUT`` for
input that cannot apply, like deciding an alert that is not open) and the run
goes on; each check prints ``{"check": K, "after": N, "got": {...}}`` with the
values it asked about. With several files each line also names its ``file``.
Every file ends with a one-line summary on standard error.

Exit status: 0; 1 with ``--check`` when the output differs from ``expect`` or a
check fails; 2 when a file cannot be read (the message names the field).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from dealer_pi.engine.errors import InputError, RuleViolation
from dealer_pi.engine.monitor.alerts import AlertRaised, Verdict
from dealer_pi.engine.observations import Observation, observation_from_dict
from dealer_pi.engine.table_session import SETUP_FIELDS, TableSession, TableSetup
from dealer_pi.engine.validate import is_whole

NAME = "scenario"
HELP = "run table scenarios (JSON): print each alert, refusal and check as a JSON line"
OWN_FIELDS = ("title", "observations", "expect", "checks")
VERDICTS = tuple(v.value for v in Verdict)
RULE_PREFIXES = ("DEAL-", "BET-", "POT-", "TABLE-")
END = "end"


def _seat_keys(d: Mapping[str, Any]) -> dict[str, Any]:
    return {str(k): v for k, v in d.items()}


def _awards(hand: Mapping[str, Any]) -> list[dict[str, Any]]:
    """Each pot paid: amount, shares by seat, the seats that got an odd chip, rake, the hand read."""
    out = []
    for a in hand["awards"]:
        shares = {str(s): c for s, c in a["shares"]}
        low = min(shares.values()) if shares else 0
        odd = [int(s) for s, c in shares.items() if len(shares) > 1 and c > low]
        out.append({"pot": a["pot"], "amount": a["amount"], "shares": shares, "odd_chips": odd, "rake": a["rake"],
                    "description": a["description"]})
    return out


def _result(hand: Mapping[str, Any]) -> dict[str, Any]:
    status = "misdeal" if hand["misdeal"] else "complete" if hand["phase"] == "complete" else "running"
    won: dict[str, int] = {}
    for a in hand["awards"]:
        for s, c in a["shares"]:
            won[str(s)] = won.get(str(s), 0) + c
    return {"status": status, "won": won}


def _read(section: str, key: str) -> Callable[[dict[str, Any]], Any]:
    return lambda snap: snap[section][key]


def _seats(pick: Callable[[dict[str, Any]], Any], keep: Callable[[dict[str, Any]], bool] | None = None
           ) -> Callable[[dict[str, Any]], Any]:
    """Per seat: a value by seat (``pick``), or the sorted seats for which ``keep`` holds."""
    def read(snap: dict[str, Any]) -> Any:
        seats = snap["table"]["seats"]
        if keep is not None:
            return sorted(int(k) for k, v in seats.items() if keep(v))
        return {k: pick(v) for k, v in seats.items()}
    return read


# What a check may ask, read off the session's snapshot (secrets never: a check is a floor's view).
CHECK_KEYS: dict[str, Callable[[dict[str, Any]], Any]] = {
    "stacks": _seats(lambda v: v["stack"]),
    "bets": _seats(lambda v: v["bet"]),
    "hole_counts": _seats(lambda v: v["hole_count"]),
    "seated": _seats(lambda v: v, lambda v: True),
    "away": _seats(lambda v: v, lambda v: bool(v["away"])),
    "folded": _seats(lambda v: v, lambda v: bool(v["in_hand"] and v["folded"])),
    "in_hand": _seats(lambda v: v, lambda v: bool(v["in_hand"])),
    "pots": lambda s: [{"amount": p["amount"], "eligible": sorted(p["eligible"])} for p in s["hand"]["pots"]],
    "awards": lambda s: _awards(s["hand"]),
    "result": lambda s: _result(s["hand"]),
    "small_blind": _read("hand", "small_blind_seat"),
    "big_blind": _read("hand", "big_blind_seat"),
    "shows_first": lambda s: s["hand"]["show_order"][0] if s["hand"]["show_order"] else None,
    "open_alerts": lambda s: [a["rule"] for a in s["alerts"]],
    "procedures": lambda s: [p["rule"] for p in s["procedures"]],
    **{k: _read("table", k) for k in ("button", "blinds", "ante", "hand_number")},
    **{k: _read("hand", k) for k in ("pot_total", "rake", "show_order", "to_act", "legal", "phase", "street",
                                     "board", "burns", "shown")},
}


@dataclass(frozen=True)
class Scenario:
    setup: TableSetup
    observations: tuple[Observation, ...]
    expect: tuple[dict[str, Any], ...] | None
    title: str = ""
    checks: tuple[dict[str, Any], ...] = ()


@dataclass
class Run:
    """What a scenario gave: alert and refusal lines, and each check's values."""

    lines: list[dict[str, Any]] = field(default_factory=list)
    checked: list[dict[str, Any]] = field(default_factory=list)  # {"check": k, "after": N, "got": {...}}


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
        expect = tuple(_expectation(e, f"expect[{i}]", len(observations)) for i, e in enumerate(_list(expect, "expect")))
    checks = tuple(_check(c, f"checks[{i}]", len(observations)) for i, c in enumerate(_list(data.get("checks", []),
                                                                                            "checks")))
    return Scenario(setup, observations, expect, title, checks)


def _list(v: object, where: str) -> list[Any]:
    if not isinstance(v, list):
        raise InputError(where, "must be a list")
    return v


def _index(at: object, where: str, n: int) -> int:
    if not is_whole(at) or not 0 <= at < n:  # type: ignore[operator]
        raise InputError(where, f"must be an observation index 0..{n - 1}, got {at!r}")
    return at


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
    _index(e["at"], f"{where}.at", n)
    if "verdict" in e and e["verdict"] not in VERDICTS:
        raise InputError(f"{where}.verdict", "must be one of " + ", ".join(VERDICTS))
    for k in ("rule", "rejected"):
        if k in e and (not isinstance(e[k], str) or not (e[k] == "INPUT" or e[k].startswith(RULE_PREFIXES))):
            raise InputError(f"{where}.{k}", f"must be a rule ID like DEAL-FIRST-EXPOSED, got {e[k]!r}")
    return dict(e)


def _check(c: object, where: str, n: int) -> dict[str, Any]:
    if not isinstance(c, Mapping):
        raise InputError(where, 'must be an object like {"after": N or "end", "stacks": {"1": 990}}')
    if "after" not in c:
        raise InputError(f"{where}.after", 'is required: an observation index or "end"')
    if c["after"] != END:
        _index(c["after"], f"{where}.after", n)
    asked = sorted(set(c) - {"after"})
    if not asked:
        raise InputError(where, "checks nothing: name at least one of " + ", ".join(CHECK_KEYS))
    for k in asked:
        if k not in CHECK_KEYS:
            raise InputError(f"{where}.{k}", "unknown check (known: " + ", ".join(CHECK_KEYS) + ")")
    return dict(c)


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


def floor_view(session: TableSession, keys: list[str]) -> dict[str, Any]:
    """The values a check asks about, as the floor sees them (no hole card)."""
    snap = session.snapshot(secrets=False)
    return {k: CHECK_KEYS[k](snap) for k in keys}


def run_scenario(sc: Scenario) -> Run:
    """Feed every observation; the alerts and refusals (``at`` counted in the file's list) and
    each check's values at its point."""
    session = TableSession(sc.setup)
    index_of: list[int] = []  # session log position -> file position
    run = Run()
    due: dict[object, list[int]] = {}
    for k, c in enumerate(sc.checks):
        due.setdefault(c["after"], []).append(k)

    def take(after: object) -> None:
        for k in due.get(after, []):
            keys = [x for x in sc.checks[k] if x != "after"]
            run.checked.append({"check": k, "after": after, "got": floor_view(session, keys)})

    for i, obs in enumerate(sc.observations):
        try:
            events = session.feed(obs)
        except RuleViolation as exc:
            run.lines.append({"rejected": exc.rule, "message": exc.message, "at": i})
            take(i)
            continue
        except InputError as exc:
            run.lines.append({"rejected": "INPUT", "message": str(exc), "at": i})
            take(i)
            continue
        index_of.append(i)
        for e in events:
            if isinstance(e, AlertRaised):
                at = index_of[e.at] if e.at < len(index_of) else i
                run.lines.append({"rule": e.rule, "verdict": e.verdict.value, "remedy": e.remedy, "at": at})
        take(i)
    take(END)
    return run


def _matches(want: Any, got: Any) -> bool:
    """Mappings on the keys given (seat numbers as strings), everything else exactly."""
    if isinstance(want, Mapping) and isinstance(got, Mapping):
        g = _seat_keys(got)
        return all(str(k) in g and _matches(v, g[str(k)]) for k, v in want.items())
    if isinstance(want, list) and isinstance(got, list):
        return len(want) == len(got) and all(_matches(w, x) for w, x in zip(want, got))
    return bool(want == got)


def differences(sc: Scenario, run: Run) -> list[str]:
    """What differs between the run and the file's ``expect`` and ``checks`` (empty when they agree)."""
    if sc.expect is None and not sc.checks:
        return ["the file has no 'expect' list and no 'checks'"]
    out: list[str] = []
    if sc.expect is not None:
        got = [{k: v for k, v in line.items() if k not in ("remedy", "message")} for line in run.lines]
        want = list(sc.expect)
        out += [f"missing {json.dumps(w, ensure_ascii=False)}" for w in want if w not in got]
        out += [f"unexpected {json.dumps(g, ensure_ascii=False)}" for g in got if g not in want]
        if not out and got != want:
            out.append("same alerts in another order")
    for done in run.checked:
        check = sc.checks[done["check"]]
        for key, value in done["got"].items():
            if not _matches(check[key], value):
                out.append(f"checks[{done['check']}] after {done['after']}: {key} is "
                           f"{json.dumps(value, ensure_ascii=False)}, expected {json.dumps(check[key], ensure_ascii=False)}")
    return out


def summary(path: str, sc: Scenario, run: Run, diff: list[str] | None) -> str:
    """One line per file: what the run gave and, with --check, whether it is what the file expects."""
    alerts = sum(1 for x in run.lines if "rule" in x)
    refused = len(run.lines) - alerts
    parts = [f"{alerts} alert{'s' if alerts != 1 else ''}", f"{refused} refusal{'s' if refused != 1 else ''}"]
    if sc.checks:
        parts.append(f"{len(sc.checks)} check{'s' if len(sc.checks) != 1 else ''}")
    what = ", ".join(parts) if run.lines or sc.checks else "clean: no alert, no refusal"
    if diff is None:
        return f"{path}: {what}"
    return f"{path}: {what}: " + ("as expected" if not diff else f"DIFFERS ({len(diff)})")


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("files", nargs="+", metavar="FILE", help="scenario JSON file(s)")
    parser.add_argument("--check", action="store_true", help="compare with each file's 'expect' list and 'checks'")


def run(args: argparse.Namespace) -> int:
    status = 0
    several = len(args.files) > 1
    for path in args.files:
        try:
            sc = load_scenario(path)
        except InputError as exc:
            print(f"error: {exc}", file=sys.stderr)
            status = 2
            continue
        result = run_scenario(sc)
        for line in [*result.lines, *result.checked]:
            print(json.dumps({"file": path, **line} if several else line, ensure_ascii=False))
        diff = differences(sc, result) if args.check else None
        for d in diff or []:
            print(f"{path}: {d}", file=sys.stderr)
        if diff and status == 0:
            status = 1
        print(summary(path, sc, result, diff), file=sys.stderr)
    return status
