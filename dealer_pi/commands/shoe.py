"""``dealer-pi shoe ...``: talk to a DPS/1 smart shoe from the command line.

* ``shoe listen --port PATH [--json]``: print every decoded frame and every
  problem (bad checksum, gap, garbage, disconnect...) until stopped; one JSON
  object per line with ``--json``. Nothing the shoe sends can stop it.
* ``shoe register --port PATH --out FILE``: pass the 52 tagged cards through the
  shoe once, in the announced order; the tag-to-card map is checked (a tag read
  twice, a card with no tag: refused, with the card named) and saved.
* ``shoe check-deck FILE``: check a saved registration.
* ``shoe virtual``: serve a virtual shoe on a pseudo-terminal (to try the above
  without hardware); it deals a shuffled deck, one card every ``--every`` seconds.
"""

from __future__ import annotations

import argparse
import json
import random
import signal
import sys
import threading
from typing import Any, Callable

from dealer_pi.hardware import dps1
from dealer_pi.hardware.deck import ORDERS, DeckRegistration, Registrar, RegistrationError
from dealer_pi.hardware.problems import Problem, Reason
from dealer_pi.hardware.serial_shoe import LinkState, SerialShoe
from dealer_pi.hardware.virtual_shoe import VirtualShoe

NAME = "shoe"
HELP = "listen to a smart shoe, register a tagged deck, or serve a virtual shoe"


def _usb(text: str) -> tuple[int, int]:
    try:
        vid, pid = text.split(":")
        return int(vid, 16), int(pid, 16)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r}: use VID:PID in hex, like 2e8a:000a") from None


def _port_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("--port", default="", help="serial device, e.g. /dev/ttyACM0 or a virtual shoe's path")
    p.add_argument("--usb", type=_usb, metavar="VID:PID", help="find the port by USB vendor:product id (hex)")
    p.add_argument("--baud", type=int, default=dps1.BAUD, help=f"baud rate (default {dps1.BAUD})")


def configure(parser: argparse.ArgumentParser) -> None:
    sub = parser.add_subparsers(dest="verb", metavar="VERB", required=True)
    listen = sub.add_parser("listen", help="print every frame and problem from the shoe")
    _port_args(listen)
    listen.add_argument("--json", action="store_true", help="one JSON object per line")
    listen.add_argument("--registration", help="deck registration file, to name tagged cards")
    listen.add_argument("--seconds", type=float, default=0, help="stop after this long (default: run until Ctrl-C)")
    register = sub.add_parser("register", help="register a tagged deck: pass its 52 cards through the shoe")
    _port_args(register)
    register.add_argument("--out", required=True, help="where to write the registration (JSON)")
    register.add_argument("--order", default="new-deck", choices=sorted(ORDERS),
                          help="the order the cards pass in (default: new-deck, As..Ks, Ad..Kd, Kc..Ac, Kh..Ah)")
    register.add_argument("--deck-id", default="", help="a name for this deck")
    register.add_argument("--timeout", type=float, default=300, help="give up after this many seconds (default 300)")
    check = sub.add_parser("check-deck", help="check a saved deck registration")
    check.add_argument("file", help="the registration written by 'shoe register --out'")
    virtual = sub.add_parser("virtual", help="serve a virtual shoe on a pseudo-terminal")
    virtual.add_argument("--link", help="keep a symlink to the shoe's tty here")
    virtual.add_argument("--every", type=float, default=2.0, help="seconds between cards (0: no cards)")
    virtual.add_argument("--seed", type=int, default=1, help="seed of the shuffle")
    virtual.add_argument("--seconds", type=float, default=0, help="stop after this long (default: until Ctrl-C)")


def _stop_event(seconds: float) -> threading.Event:
    stop = threading.Event()

    def handler(signum: int, frame: Any) -> None:
        stop.set()

    signal.signal(signal.SIGINT, handler)
    signal.signal(signal.SIGTERM, handler)
    if seconds > 0:
        timer = threading.Timer(seconds, stop.set)
        timer.daemon = True
        timer.start()
    return stop


def message_dict(msg: dps1.Message, registration: DeckRegistration | None = None) -> dict[str, Any]:
    """The JSON line for one frame: ``{"seq": 12, "type": "draw", "card": "Ah", "ms": 5120}``."""
    if isinstance(msg, dps1.Draw):
        out: dict[str, Any] = {"seq": msg.seq, "type": "draw", "card": None, "ms": msg.ms}
        if msg.card.startswith("U:"):
            out["tag"] = msg.card
            card = registration.card_for(msg.card) if registration else None
            out["card"] = str(card) if card else None
        elif msg.card != "?":
            out["card"] = msg.card
        return out
    if isinstance(msg, dps1.Heartbeat):
        return {"seq": msg.seq, "type": "heartbeat", "ms": msg.ms}
    if isinstance(msg, dps1.Fault):
        return {"seq": msg.seq, "type": "fault", "code": msg.code, "ms": msg.ms, "extra": list(msg.extra)}
    return {"seq": msg.seq, "type": "hello", "version": msg.version, "firmware": msg.firmware, "shoe_id": msg.shoe_id}


def _text(d: dict[str, Any]) -> str:
    kind = d["type"]
    if kind == "problem":
        # `shoe listen` is the technician's console: the frame's own bytes are shown too.
        return f"PROBLEM {d['reason']}: {d['detail']}" + (f" [{d['secret']}]" if d.get("secret") else "")
    if kind == "state":
        return f"-- {d['state']}: {d['detail']}"
    rest = " ".join(f"{k}={v}" for k, v in d.items() if k not in ("type", "seq"))
    return f"#{d['seq']:<5} {kind:<9} {rest}"


def _open(args: argparse.Namespace, **callbacks: Any) -> SerialShoe:
    vid, pid = args.usb or (0, 0)
    return SerialShoe(args.port, usb_vid=vid, usb_pid=pid, baud=args.baud, **callbacks)


def _listen(args: argparse.Namespace) -> int:
    registration = None
    if args.registration:
        try:
            registration = DeckRegistration.load(args.registration)
        except RegistrationError as exc:
            print(f"dealer-pi shoe listen: {exc}", file=sys.stderr)
            return 2
    lock = threading.Lock()
    stop = _stop_event(args.seconds)

    def emit(d: dict[str, Any]) -> None:
        line = json.dumps(d, ensure_ascii=False) if args.json else _text(d)
        with lock:
            try:
                print(line, flush=True)
            except (BrokenPipeError, ValueError):  # the reader of our output went away (| head)
                stop.set()

    def on_problem(p: Problem) -> None:
        emit(p.to_dict())

    def on_state(state: LinkState, why: str) -> None:
        emit({"type": "state", "state": state.value, "detail": why})

    try:
        shoe = _open(args, registration=registration, on_message=lambda m: emit(message_dict(m, registration)),
                     on_problem=on_problem, on_state=on_state)
    except ValueError as exc:
        print(f"dealer-pi shoe listen: {exc}", file=sys.stderr)
        return 2
    with shoe:
        while not stop.wait(0.2):
            pass
    return 0


def _register(args: argparse.Namespace) -> int:
    registrar = Registrar(ORDERS[args.order], deck_id=args.deck_id)
    done = threading.Event()
    print(f"pass the 52 cards through the shoe, {args.order} order; first: {registrar.expected}", flush=True)

    def on_message(msg: dps1.Message) -> None:
        if isinstance(msg, dps1.Draw) and not done.is_set():
            registrar.add(msg.card)
            nxt = registrar.expected
            print(f"{len(registrar.reads):2}/52 {msg.card}" + (f"  next: {nxt}" if nxt else ""), flush=True)
            if nxt is None:
                done.set()

    lost: list[Problem] = []

    def on_problem(p: Problem) -> None:
        print(f"PROBLEM {p.reason.value}: {p.detail}", file=sys.stderr, flush=True)
        if p.reason in (Reason.MISSED, Reason.SHOE_RESTARTED):
            # A lost draw shifts every later card by one: the map would be wrong, not just short.
            lost.append(p)
            done.set()

    try:
        shoe = _open(args, on_message=on_message, on_problem=on_problem)
    except ValueError as exc:
        print(f"dealer-pi shoe register: {exc}", file=sys.stderr)
        return 2
    with shoe:
        finished = done.wait(args.timeout)
    if lost:
        print(f"refused: {lost[0].detail}; pass the whole deck again", file=sys.stderr)
        return 1
    if not finished:
        print(f"dealer-pi shoe register: gave up after {args.timeout:g} s", file=sys.stderr)
    try:
        registration = registrar.finish()
    except RegistrationError as exc:
        for problem in exc.problems:
            print(f"refused: {problem}", file=sys.stderr)
        return 1
    registration.save(args.out)
    print(f"registered 52 cards in {args.out}")
    return 0


def _check_deck(args: argparse.Namespace) -> int:
    try:
        reg = DeckRegistration.load(args.file)
    except RegistrationError as exc:
        for problem in exc.problems:
            print(problem, file=sys.stderr)
        return 1
    print(f"{args.file}: {len(reg.cards)} cards, every card once, every tag once" +
          (f" (deck {reg.deck_id})" if reg.deck_id else ""))
    return 0


def _virtual(args: argparse.Namespace) -> int:
    stop = _stop_event(args.seconds)
    rnd = random.Random(args.seed)
    with VirtualShoe(link=args.link) as shoe:
        print(f"virtual shoe on {shoe.path}", flush=True)
        deck: list[str] = []
        while not stop.wait(args.every if args.every > 0 else 0.5):
            if args.every > 0:
                if not deck:
                    deck = list(ORDERS["index"])
                    rnd.shuffle(deck)
                shoe.draw(deck.pop())
    return 0


VERBS: dict[str, Callable[[argparse.Namespace], int]] = {
    "listen": _listen, "register": _register, "check-deck": _check_deck, "virtual": _virtual,
}


def run(args: argparse.Namespace) -> int:
    return VERBS[args.verb](args)
