"""The table clock (TABLE-LEVELS) and the shot clock (BET-CLOCK).

The clock is driven by journaled commands with their wall-clock time, so after
a restart it is rebuilt exactly: levels, running or paused, time left. It never
reads a clock itself; every method takes ``now_ms``.

>>> c = TableClock()
>>> c.apply({"action": "set_levels", "levels": [{"small_blind": 5, "big_blind": 10, "minutes": 1},
...                                              {"small_blind": 10, "big_blind": 20, "minutes": 1}]}, 0)
>>> c.apply({"action": "start"}, 0)
>>> c.view(30_000)["remaining_ms"], c.view(30_000)["level"]
(30000, 1)
>>> c.view(61_000)["level"], c.view(61_000)["remaining_ms"]
(2, 59000)
>>> c.apply({"action": "pause"}, 61_000); c.view(500_000)["remaining_ms"]
59000
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Mapping

from dealer_pi.engine.errors import InputError
from dealer_pi.engine.validate import flag, is_number, whole

ACTIONS = ("set_levels", "start", "pause", "resume", "next", "previous", "set_level", "shot_clock", "shot_clock_stop",
           "sync")
DEFAULT_SHOT_S = 30  # 002 §13: 30 seconds once the clock is called


def check_level(data: object, where: str) -> dict[str, Any]:
    """One level of a schedule, checked; errors name the field."""
    if not isinstance(data, Mapping):
        raise InputError(where, "must be an object with small_blind, big_blind and minutes")
    unknown = set(data) - {"small_blind", "big_blind", "ante", "minutes", "break"}
    if unknown:
        raise InputError(f"{where}.{sorted(unknown)[0]}", "unknown field (known: small_blind, big_blind, ante, minutes, break)")
    for key in ("small_blind", "big_blind", "minutes"):
        if key not in data:
            raise InputError(f"{where}.{key}", "is required")
    sb = whole(data["small_blind"], f"{where}.small_blind", low=0, high=10**9)
    bb = whole(data["big_blind"], f"{where}.big_blind", low=0, high=10**9)
    if sb > bb:
        raise InputError(f"{where}.small_blind", f"must not be above the big blind ({bb})")
    ante = whole(data.get("ante", 0), f"{where}.ante", low=0, high=10**9)
    if not data.get("break") is True and bb == 0 and ante == 0:
        raise InputError(f"{where}.big_blind", "a level needs a big blind or an ante to play for (both blinds 0 "
                         "with an ante: an ante-only level)")
    minutes = data["minutes"]
    if not is_number(minutes) or not 0 < minutes <= 24 * 60:
        raise InputError(f"{where}.minutes", f"must be a number of minutes above 0 and at most 1440, got {minutes!r}")
    brk = flag(data.get("break", False), f"{where}.break")
    return {"small_blind": sb, "big_blind": bb, "ante": ante, "minutes": minutes, "break": brk}


def check_command(data: object, where: str = "body") -> dict[str, Any]:
    """A clock command from the API, checked and normalised (what gets journaled)."""
    if not isinstance(data, Mapping):
        raise InputError(where, "must be an object with an 'action' field")
    action = data.get("action")
    if action not in ACTIONS:
        raise InputError(f"{where}.action", "must be one of " + ", ".join(ACTIONS))
    allowed = {"action"} | {
        "set_levels": {"levels"},
        "set_level": {"level"},
        "shot_clock": {"seat", "seconds"},
        "sync": {"levels", "level", "running", "remaining_ms"},
    }.get(action, set())
    unknown = set(data) - allowed
    if unknown:
        raise InputError(f"{where}.{sorted(unknown)[0]}", f"unknown field for {action}")
    out: dict[str, Any] = {"action": action}
    if action == "set_levels":
        levels = data.get("levels")
        if not isinstance(levels, list) or not levels:
            raise InputError(f"{where}.levels", "must be a non-empty list of levels")
        if len(levels) > 200:
            raise InputError(f"{where}.levels", "at most 200 levels")
        out["levels"] = [check_level(lv, f"{where}.levels[{i}]") for i, lv in enumerate(levels)]
    elif action == "set_level":
        if "level" not in data:
            raise InputError(f"{where}.level", "is required")
        out["level"] = whole(data["level"], f"{where}.level", low=1, high=200)
    elif action == "sync":
        out.update(_check_sync(data, where))
    elif action == "shot_clock":
        if data.get("seat") is not None:
            out["seat"] = whole(data["seat"], f"{where}.seat", low=1, high=10)
        out["seconds"] = whole(data.get("seconds", DEFAULT_SHOT_S), f"{where}.seconds", low=1, high=600)
    return out


def _check_sync(data: Mapping[str, Any], where: str) -> dict[str, Any]:
    """The floor's clock (TABLE-LEVELS: one clock for the room): levels, level (1-based, 0 with
    none), running and the time left in the level."""
    levels = data.get("levels")
    if not isinstance(levels, list) or len(levels) > 200:
        raise InputError(f"{where}.levels", "must be a list of at most 200 levels")
    checked = [check_level(lv, f"{where}.levels[{i}]") for i, lv in enumerate(levels)]
    level = whole(data.get("level"), f"{where}.level", low=1 if checked else 0, high=len(checked))
    running = data.get("running")
    if not isinstance(running, bool):
        raise InputError(f"{where}.running", "must be true or false")
    left = data.get("remaining_ms")
    if checked:
        left = whole(left, f"{where}.remaining_ms", low=0, high=int(checked[level - 1]["minutes"] * 60_000))
    return {"levels": checked, "level": level, "running": running and bool(checked), "remaining_ms": left}


@dataclass
class TableClock:
    levels: list[dict[str, Any]] = field(default_factory=list)
    index: int = 0
    running: bool = False
    # Time spent in the current level before ``since_ms`` (when running).
    spent_ms: int = 0
    since_ms: int = 0
    shot: dict[str, Any] | None = None

    def _length(self, i: int) -> int:
        return int(self.levels[i]["minutes"] * 60_000)

    def _position(self, now_ms: int) -> tuple[int, int]:
        """(level index, ms spent in it) at ``now_ms``; levels follow one another without a gap.
        Reading never changes the clock, so any thread may read it."""
        index, spent = self.index, self.spent_ms
        if not self.running or not self.levels:
            return index, spent
        spent += now_ms - self.since_ms
        while spent >= self._length(index) and index < len(self.levels) - 1:
            spent -= self._length(index)
            index += 1
        return index, spent

    def _advance(self, now_ms: int) -> None:
        if self.running and self.levels:
            self.index, self.spent_ms = self._position(now_ms)
            self.since_ms = now_ms

    def apply(self, cmd: Mapping[str, Any], now_ms: int) -> None:
        """Apply a checked command (see :func:`check_command`) at ``now_ms``."""
        self._advance(now_ms)
        action = cmd["action"]
        if action == "set_levels":
            self.levels = [dict(lv) for lv in cmd["levels"]]
            self.index, self.running, self.spent_ms, self.since_ms = 0, False, 0, now_ms
        elif action in ("start", "resume"):
            if self.levels and not self.running:
                self.running, self.since_ms = True, now_ms
        elif action == "pause":
            self.running = False
        elif action in ("next", "previous", "set_level") and self.levels:
            target = {"next": self.index + 1, "previous": self.index - 1}.get(action, cmd.get("level", 1) - 1)
            self.index = max(0, min(len(self.levels) - 1, target))
            self.spent_ms, self.since_ms = 0, now_ms
        elif action == "shot_clock":
            self.shot = {"seat": cmd.get("seat"), "seconds": cmd["seconds"], "ends_at_ms": now_ms + cmd["seconds"] * 1000}
        elif action == "shot_clock_stop":
            self.shot = None
        elif action == "sync":
            self.levels = [dict(lv) for lv in cmd["levels"]]
            self.index = max(0, cmd["level"] - 1)
            self.running = cmd["running"]
            self.spent_ms = self._length(self.index) - cmd["remaining_ms"] if self.levels else 0
            self.since_ms = now_ms

    def current_level(self, now_ms: int) -> dict[str, Any] | None:
        return dict(self.levels[self._position(now_ms)[0]]) if self.levels else None

    def view(self, now_ms: int) -> dict[str, Any]:
        index, spent = self._position(now_ms)
        has = bool(self.levels)
        remaining = max(0, self._length(index) - spent) if has else None
        shot = None
        if self.shot is not None:
            shot = dict(self.shot, remaining_ms=max(0, self.shot["ends_at_ms"] - now_ms))
        return {
            "levels": [dict(lv) for lv in self.levels],
            "level": index + 1 if has else 0,
            "running": self.running,
            "remaining_ms": remaining,
            "server_time_ms": now_ms,
            "current": dict(self.levels[index]) if has else None,
            "next": dict(self.levels[index + 1]) if has and index + 1 < len(self.levels) else None,
            "shot_clock": shot,
        }
