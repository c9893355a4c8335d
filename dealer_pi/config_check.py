"""Everything ``serve`` would refuse in a config, found first and named by its key.

:func:`load_config` checks names and types; :func:`problems` checks what the
values mean: ports, thread counts, tokens, the stream delay, the rule profile,
blinds and seats, the camera, the shoe and pins (``hardware/settings.py``) and
the journal itself. ``dealer-pi check-config`` prints them all; ``serve`` runs
the same checks and refuses to start on any of them. :func:`warnings` names what
works but is probably not what was meant (an empty token).

>>> from dealer_pi.config import config_from_dict
>>> for key, message in problems(config_from_dict({"web": {"port": 70000, "stream_delay_s": -30}})):
...     print(key, "-", message)
web.port - must be 0..65535, got 70000
web.stream_delay_s - must not be negative, got -30
"""

from __future__ import annotations

import ipaddress
import re
from pathlib import Path
from typing import Any, Callable

from dealer_pi.config import Config
from dealer_pi.engine.errors import InputError
from dealer_pi.runtime.wiring import resolve

MIN_SAFE_DELAY_S = 300  # shorter than a long hand: a stream could show hole cards while it is being played
MAX_DELAY_S = 24 * 3600
MIN_TOKEN = 12
HOLE_CARD_MODES = ("after-delay", "after-hand")
CAMERA_SOURCES = ("none", "v4l2", "picamera2", "file")
_HOSTNAME = re.compile(r"\A(?=.{1,253}\Z)[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?(\.[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*\Z")
_TOKEN = re.compile(r"\A[!-~]+\Z")  # printable ASCII, no spaces: it travels in a header and a URL

Problems = list[tuple[str, str]]


def problems(config: Config, base_dir: str | Path = ".", *, journal: bool = False) -> Problems:
    """Every ``(key, message)`` that ``serve`` would refuse; empty when the config is good.

    ``journal``: also check the journal file itself (read only), as ``serve`` does before it starts.
    """
    from dealer_pi.floor.settings import check_floor
    from dealer_pi.hardware.settings import check_hardware

    base = Path(base_dir)
    out: Problems = []
    for check in (_web, _table, _camera):
        check(config, base, out)
    out += check_hardware(config, base)
    out += check_floor(config, base)
    if journal:
        _journal(config, base, out)
    return out


def warnings(config: Config) -> Problems:
    """What works but is likely a mistake."""
    out: Problems = []
    if not config.web.dealer_token:
        out.append(("web.dealer_token", "is empty: the dealer's tablet cannot enter anything "
                                        "(`make install` writes a random token)"))
    if not config.web.producer_token:
        out.append(("web.producer_token", "is empty: there is no live overlay with hole cards "
                                          "(`make install` writes a random token)"))
    return out


# ---- [web] --------------------------------------------------------------------------------

def _web(config: Config, base: Path, out: Problems) -> None:
    from dealer_pi.web.limits import MAX_THREADS, MIN_THREADS

    w = config.web
    if not _is_host(w.host):
        out.append(("web.host", f"must be an IP address (0.0.0.0 for every interface) or a host name, got {w.host!r}"))
    if not 0 <= w.port <= 65535:
        out.append(("web.port", f"must be 0..65535, got {w.port}"))
    if not MIN_THREADS <= w.threads <= MAX_THREADS:
        out.append(("web.threads", f"must be {MIN_THREADS}..{MAX_THREADS} (16 for API calls, 8 streams each for the "
                                   f"dealer and the producer, the rest public), got {w.threads}"))
    for key in ("dealer_token", "producer_token"):
        token = getattr(w, key)
        if token and not _TOKEN.match(token):
            out.append((f"web.{key}", "must be printable ASCII without spaces (it travels in a header and a URL)"))
        elif token and len(token) < MIN_TOKEN:
            out.append((f"web.{key}", f"must be at least {MIN_TOKEN} characters, got {len(token)}: "
                                      "anyone on the network could guess it"))
    if w.dealer_token and w.dealer_token == w.producer_token:
        out.append(("web.producer_token", "is the same as web.dealer_token: the two roles must differ"))
    _delay(config, out)
    if not w.audit_log.strip():
        out.append(("web.audit_log", "must name a file: every undelayed hole-card read is written there"))


def _delay(config: Config, out: Problems) -> None:
    w = config.web
    if w.public_hole_cards not in HOLE_CARD_MODES:
        out.append(("web.public_hole_cards", f"must be one of {', '.join(HOLE_CARD_MODES)}, got {w.public_hole_cards!r}"))
    if w.stream_delay_s < 0:
        out.append(("web.stream_delay_s", f"must not be negative, got {w.stream_delay_s}"))
    elif w.stream_delay_s > MAX_DELAY_S:
        out.append(("web.stream_delay_s", f"must be at most {MAX_DELAY_S} (a day), got {w.stream_delay_s}"))
    elif w.stream_delay_s < MIN_SAFE_DELAY_S and w.public_hole_cards != "after-hand":
        out.append(("web.stream_delay_s", f"{w.stream_delay_s} s is shorter than the {MIN_SAFE_DELAY_S} s a hand can "
                                          "last: set web.public_hole_cards = \"after-hand\" (the public view then "
                                          f"shows no hole card before the hand is over), or a delay of "
                                          f"{MIN_SAFE_DELAY_S} s or more"))


def _is_host(host: str) -> bool:
    try:
        ipaddress.ip_address(host)
        return True
    except ValueError:
        return bool(_HOSTNAME.match(host))


# ---- [table] ------------------------------------------------------------------------------

def _table(config: Config, base: Path, out: Problems) -> None:
    from dealer_pi.engine.profiles import PROFILES
    from dealer_pi.engine.setup import MAX_CHIPS, MAX_SEATS, Structure

    t = config.table
    if not t.name.strip():
        out.append(("table.name", "must not be empty: the pages show it"))
    if t.profile_file:
        _profile_file(config, base, out)
    elif t.profile not in PROFILES:
        out.append(("table.profile", f"unknown profile {t.profile!r}: use one of {', '.join(PROFILES)}, "
                                     "or table.profile_file for one of your own"))
    structures = [s.value for s in Structure]
    if t.structure not in structures:
        out.append(("table.structure", f"must be one of {', '.join(structures)}, got {t.structure!r}"))
    for key, low in (("small_blind", 0), ("big_blind", 1), ("ante", 0)):
        value = getattr(t, key)
        if not low <= value <= MAX_CHIPS:
            out.append((f"table.{key}", f"must be {low}..{MAX_CHIPS}, got {value}"))
    if 0 <= t.big_blind < t.small_blind:
        out.append(("table.small_blind", f"must not be more than table.big_blind ({t.big_blind}), got {t.small_blind} "
                                         "(BET-BLINDS)"))
    if t.big_blind_ante:
        out.append(("table.big_blind_ante", "a big-blind ante is not supported yet: leave this false and set "
                                            "table.ante (paid by every seat)"))
    if not 2 <= t.seats <= MAX_SEATS:
        out.append(("table.seats", f"must be 2..{MAX_SEATS}, got {t.seats}"))
    if not any(k.startswith("table.") for k, _ in out):
        _table_setup(config, base, out)


def _profile_file(config: Config, base: Path, out: Problems) -> None:
    from dealer_pi.profile_file import read_profile_file

    t = config.table
    try:
        based_on, _ = read_profile_file(resolve(base, t.profile_file))
    except InputError as exc:
        out.append(("table.profile_file", str(exc)))
        return
    if t.profile not in ("standard", based_on):
        out.append(("table.profile", f"is {t.profile!r} but table.profile_file is based on {based_on!r}: "
                                     "leave table.profile out, or make them the same"))


def _table_setup(config: Config, base: Path, out: Problems) -> None:
    """The setup a fresh table starts from must be one the engine deals (a last guard)."""
    from dealer_pi.engine.setup import check_table
    from dealer_pi.engine.table_session import TableSetup
    from dealer_pi.runtime.wiring import default_setup

    keys = {"profile": "table.profile", "overrides": "table.profile_file", "blinds": "table.big_blind",
            "ante": "table.ante", "structure": "table.structure", "seats": "table.seats", "button": "table.seats"}
    try:
        setup = TableSetup.from_dict(default_setup(config, base))
        check_table(setup.seats, setup.button, setup.blinds, setup.ante)
    except InputError as exc:
        field = exc.where.split(".")[1] if "." in exc.where else ""
        out.append((keys.get(field, "table"), exc.message))


# ---- [camera] -----------------------------------------------------------------------------

def _camera(config: Config, base: Path, out: Problems) -> None:
    c = config.camera
    if c.source not in CAMERA_SOURCES:
        out.append(("camera.source", f"must be one of {', '.join(CAMERA_SOURCES)}, got {c.source!r}"))
    elif c.source == "file" and not resolve(base, c.device).exists():
        out.append(("camera.device", f"no file or folder {c.device!r} for the file source"))
    elif c.source != "none" and not c.device.strip():
        out.append(("camera.device", "must name the camera (a number for v4l2, a path for file)"))
    for key, low, high in (("width", 16, 8192), ("height", 16, 8192), ("fps", 1, 120), ("queue_size", 1, 2)):
        value = getattr(c, key)
        if not low <= value <= high:
            out.append((f"camera.{key}", f"must be {low}..{high}, got {value}"))
    if not 0.0 <= c.min_confidence <= 1.0:
        out.append(("camera.min_confidence", f"must be 0..1, got {c.min_confidence}"))
    if c.card_height_px < 0:
        out.append(("camera.card_height_px", f"must not be negative (0 = measure it), got {c.card_height_px}"))
    for key, load in (("layout_file", _load_layout), ("enrolment_file", _load_enrolment)):
        name = getattr(c, key)
        if name:
            why = load(resolve(base, name))
            if why:
                out.append((f"camera.{key}", why))


def _load_layout(path: Path) -> str:
    from dealer_pi.config import ConfigError
    from dealer_pi.vision.calibration import load_layout

    return _why(lambda: load_layout(path), (ConfigError, InputError))


def _load_enrolment(path: Path) -> str:
    from dealer_pi.vision.recogniser import Enrolment, ModelError

    return _why(lambda: Enrolment.load(path), (ModelError,))


def _why(load: Callable[[], Any], errors: tuple[type[Exception], ...]) -> str:
    try:
        load()
    except errors as exc:
        return str(exc)
    return ""


# ---- [journal] ----------------------------------------------------------------------------

def _journal(config: Config, base: Path, out: Problems) -> None:
    from dealer_pi.runtime.journal_check import startup_problem

    if not config.journal.path.strip():
        out.append(("journal.path", "must name a file"))
        return
    problem = startup_problem(resolve(base, config.journal.path))
    if problem:
        out.append(("journal.path", problem))
