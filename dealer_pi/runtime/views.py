"""Who may see what: the dealer, the producer's live view and the delayed public view.

Hole cards are secrets. The dealer never sees one during a hand; the producer
sees them at once (every read audited by the web layer); the public sees them
only once the stream delay has passed (the publisher holds the data back).
Burned cards and cards still in the shoe are shown to no one (DEAL-NO-RABBIT).

Events are redacted by shape, not by a list of event names, so that a new event
type that carries a card the way an old one does is covered too:

>>> redact_event({"type": "hole_cards_dealt", "seat": 3, "cards": ["Ah", "Kd"]}, "dealer")
{'type': 'hole_cards_dealt', 'seat': 3, 'cards': [None, None]}
>>> redact_event({"type": "hole_cards_dealt", "seat": 3, "cards": ["Ah", None]}, "live")
{'type': 'hole_cards_dealt', 'seat': 3, 'cards': ['Ah', None]}
>>> redact_event({"type": "card_burned", "card": "2c"}, "live")
{'type': 'card_burned', 'card': None}
>>> redact_event({"type": "board_dealt", "cards": ["Jc", "Ts", "2d"]}, "dealer")["cards"]
['Jc', 'Ts', '2d']
>>> a = {"type": "alert_raised", "rule": "DEAL-HOLE-COUNT", "remedy": "Ah goes back on top", "card": "Ah"}
>>> redact_event(a, "dealer")["remedy"], redact_event(a, "live")["remedy"]
('a card goes back on top', 'a card goes back on top')
>>> redact_event(dict(a, remedy="Qs was burned, not the extra card Ah", card="Qs"), "live")["remedy"]
'a card was burned, not the extra card a card'

A card everyone saw face up is named; one the camera was not sure lay face up is not:

>>> up = {"type": "alert_raised", "rule": "DEAL-FIRST-EXPOSED", "verdict": "misdeal", "card": "Ah"}
>>> redact_event(up, "dealer")["card"], redact_event(dict(up, verdict="uncertain"), "live")["card"]
('Ah', None)

A camera's guess at a face-up card it could not name may be wrong, and wrong as the seat's
other card, still face down: the dealer never sees a guess.

>>> seen = {"type": "card_seen", "zone": "seat:2", "face_up": True, "card": None, "guess": "Js"}
>>> redact_event(seen, "dealer")["guess"], redact_event(seen, "live")["guess"]
(None, 'Js')

"""

from __future__ import annotations

import re
from typing import Any, Final

VIEWS: Final = ("dealer", "live", "public")
ROLE_VIEW: Final = {"dealer": "dealer", "producer": "live", "public": "public"}

# Events whose cards are hole cards (hidden from the dealer) or never shown at all.
_HOLE_EVENTS: Final = frozenset({"hole_cards_dealt"})
_NEVER_EVENTS: Final = frozenset({"card_burned"})
# Alerts about a card lying face up on the felt (everyone at the table saw it). Any other alert's
# card may be a face-down card the shoe read (dealt out of order, an extra hole card that becomes
# the burn, a card seen twice): when the alert is raised nobody knows yet whether it will be a
# hole card or a burn, so every view, the producer's too, gets "a card" instead of its name.
EXPOSED_RULES: Final = frozenset({
    "DEAL-FIRST-EXPOSED", "DEAL-HOLE-EXPOSED", "DEAL-PLAYER-EXPOSED", "DEAL-FACEUP-IN-DECK", "DEAL-FLOP-EXTRA",
    "DEAL-TURN-EARLY", "DEAL-RIVER-EARLY", "DEAL-BOARD-EXTRA", "DEAL-NO-RABBIT",
})
# A "not sure" notice under one of those rules is no exception: the camera could not tell that the
# card lay face up, so the card it names (the smart shoe's read) may be a face-down hole card.
# Observations carried inside events (an alert's trigger) whose card identity is secret:
# a smart shoe reads every card it lets out, and a face-down card seen in a seat is a hole card.
_SECRET_OBS: Final = frozenset({"shoe_draw"})
# A card's name as the engine writes it (Card.__str__): "Ah", "Tc".
_CARD_NAME: Final = re.compile(r"\b[2-9TJQKA][cdhs]\b")


def _blank(value: Any) -> Any:
    if isinstance(value, list):
        return [None for _ in value]
    return None


def _walk(node: Any, view: str) -> Any:
    if isinstance(node, list):
        return [_walk(v, view) for v in node]
    if not isinstance(node, dict):
        return node
    kind = node.get("type")
    if kind == "alert_raised" and (node.get("rule") not in EXPOSED_RULES or node.get("verdict") == "uncertain"):
        # Every card the text names, not only the alert's own: "X was burned, not the extra card Y"
        # names a burn and a card back on top of the deck.
        node = {k: (_CARD_NAME.sub("a card", v) if isinstance(v, str) and k not in ("rule", "type", "alert_id") else v)
                for k, v in node.items()}
        if "card" in node:
            node["card"] = None
    out: dict[str, Any] = {}
    for key, value in node.items():
        if key in ("card", "cards"):
            if kind in _NEVER_EVENTS or kind in _SECRET_OBS:
                out[key] = _blank(value)
                continue
            if view == "dealer" and (kind in _HOLE_EVENTS or (kind == "card_seen" and node.get("face_up") is False)):
                out[key] = _blank(value)
                continue
        if key in ("secret", "hole_cards") and view == "dealer":
            continue
        if key == "guess" and view == "dealer":
            out[key] = None
            continue
        out[key] = _walk(value, view)
    return out


def redact_event(event: dict[str, Any], view: str) -> dict[str, Any]:
    """An engine event's JSON form as ``view`` may see it (a new dict; the input is untouched)."""
    if view not in VIEWS:
        raise ValueError(f"unknown view {view!r}")
    return _walk(event, view)  # type: ignore[no-any-return]


def redact_state(table: dict[str, Any] | None, view: str) -> dict[str, Any] | None:
    """The engine's snapshot (without secrets) as ``view`` may see it: the open alerts are events."""
    return None if table is None else redact_event(table, view)


# What a card or an RFID tag looks like inside free text (an engine refusal, a device message).
_CARD_TEXT: Final = re.compile(r"\b(?:10|[2-9TJQKA])[cdhs]\b|\b[Uu]:[0-9A-Fa-f]{4,}\b|b'[^']*'|b\"[^\"]*\"")


def scrub_cards(text: str) -> str:
    """``text`` with every card name, tag id and quoted bytes replaced (a notice shown to the dealer).

    >>> scrub_cards("refused: Kd was already dealt; frame b'11,DRAW,4312,Kd*5D', tag U:04A1B2C3")
    'refused: a card was already dealt; frame (bytes withheld), tag a tag'
    >>> scrub_cards("Ah exposed: Ah goes to the burn")
    'a card exposed: a card goes to the burn'
    """
    def one(m: re.Match[str]) -> str:
        t = m.group(0)
        return "(bytes withheld)" if t.startswith("b") else "a tag" if t[:2].upper() == "U:" else "a card"
    return _CARD_TEXT.sub(one, text)


def redact_notice(notice: dict[str, Any], view: str) -> dict[str, Any] | None:
    """A device notice as ``view`` may see it: the producer gets it whole, the dealer without
    its ``secret`` (what the device sent) and with no card named, the public not at all."""
    if view == "live":
        return dict(notice)
    if view != "dealer":
        return None
    out = {k: v for k, v in notice.items() if k != "secret"}
    out["message"] = scrub_cards(str(out.get("message", "")))
    return out


def has_hole_cards(event: dict[str, Any]) -> bool:
    """Whether an event as sent shows a hole card (for the audit log)."""
    return event.get("type") in _HOLE_EVENTS and any(c is not None for c in event.get("cards") or ())


def state_has_hole_cards(state: dict[str, Any]) -> bool:
    """Whether a state message as sent shows a hole card (for the audit log).

    >>> state_has_hole_cards({"hole_cards": {"3": ["Ah", None]}}), state_has_hole_cards({"hole_cards": {"3": [None]}})
    (True, False)
    """
    holes = state.get("hole_cards") or {}
    return any(c is not None for cards in holes.values() for c in (cards or ()))
