"""From per-frame detections to table observations: one card, one event.

A card must be seen in ``confirm_frames`` frames at the same place before it
is reported (``CardSeen``), so a card sliding across the felt in the dealer's
hand, or a glint that looks like a card for a frame, reports nothing. Its
identity is the vote of the frames seen with its current face; a face-up card
waits up to ``2 * confirm_frames`` frames for its votes to reach
``min_confidence``, and is then reported with ``card=None`` (and, where most of its
frames' reads leaned to one name, that name as its ``guess``). A confident name
that comes later is not reported again: a second report of one card would be
taken for the next card dealt (the shoe's next draw waits for its landing); it
names the card when it leaves. A name another card on the table was already reported with is
withheld: one card, one place (DEAL-DECK).

A reported card leaves (``CardLeft``) only after its place has shown bare
felt for ``leave_frames`` frames. While something covers the place (a hand,
chips, another card) the card is held, not dropped: hands passing over the
cards produce no events. A face-down card turned face up in place (seen so for
``confirm_frames`` frames) is reported again with ``face_up=True``: the card
is now exposed. Cards in the pot zone or outside every zone make no events.

The ``shoe`` zone is the deck's mouth: a card lying there face down that goes
is a card lost from the deck (``CardLeft``, DEAL-MISSING-CARD), while a card
shown face up there goes back into the deck at the bottom
(DEAL-FACEUP-IN-DECK), which is no loss and makes no event.

>>> from dealer_pi.engine.cards import Card
>>> from dealer_pi.vision.detect import CardFound
>>> t = CardTracker(confirm_frames=2, leave_frames=2)
>>> f = CardFound(Card.parse("Ah"), True, (100.0, 100.0), ((80.0, 70.0), (120.0, 70.0), (120.0, 130.0), (80.0, 130.0)), 0.97, "board")
>>> t.update(0, [f]), [str(o.card) for o in t.update(66, [f])]
([], ['Ah'])
>>> t.update(132, []), [type(o).__name__ for o in t.update(198, [])]
([], ['CardLeft'])
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Union

from dealer_pi.engine.cards import Card, misread_as
from dealer_pi.engine.observations import CardLeft, CardSeen, Zone

from .detect import CardFound

Observation = Union[CardSeen, CardLeft]
GUESS_SHARE = 0.8  # a guess is one name held by this share of the unnamed frames that leaned to any


@dataclass
class Track:
    zone: str
    centre: tuple[float, float]
    size: float
    first_ts: int
    hits: int = 0
    misses: int = 0
    votes: dict[Card, float] = field(default_factory=dict)  # card -> summed read confidence, this face
    face_up: bool = True  # the settled face
    face_frames: int = 0  # frames seen with the settled face
    other_run: int = 0  # consecutive frames showing the other face
    pending: dict[Card, float] = field(default_factory=dict)  # votes seen while the other face shows
    unnamed: int = 0  # face-up frames (this face) where the card could not be named: half a vote each against a name
    guesses: dict[Card, list[float]] = field(default_factory=dict)  # card -> how far the reads leaned to it, frame by frame
    pending_unnamed: int = 0  # the same two, while the other face shows
    pending_guesses: dict[Card, list[float]] = field(default_factory=dict)
    reported: bool = False
    reported_face_up: bool | None = None
    reported_card: Card | None = None
    corners: tuple[tuple[float, float], ...] = ()  # the outline last seen

    def leader(self) -> tuple[Card, float]:
        return max(self.votes.items(), key=lambda kv: (kv[1], -kv[0].index))

    def identity(self, min_confidence: float) -> tuple[Card | None, float]:
        """The voted card and its share of the face-up evidence. A frame that could not name the
        card counts half a vote against it; one whose reads leaned to a name a misread of it
        makes (``misread_as``), as much as they leaned."""
        if not self.votes:
            return None, 0.0
        card, weight = self.leader()
        leaning = sum(sum(ws) - 0.5 * len(ws) for other, ws in self.guesses.items() if misread_as(card, other))
        share = weight / max(1e-6, sum(self.votes.values()) + 0.5 * self.unnamed + leaning)
        return (card if share >= min_confidence else None), float(share)

    def contested(self, card: Card) -> bool:
        """Whether some frames named, or leaned to, a name a misread of ``card`` makes."""
        return any(misread_as(card, other) for other in (*self.votes, *self.guesses))

    def guess(self) -> Card | None:
        """For a card no frame named, the name its reads leaned to: in at least half of its
        unnamed face-up frames, and in :data:`GUESS_SHARE` of those that leaned anywhere."""
        if not self.guesses:
            return None
        card, frames = max(((c, len(ws)) for c, ws in self.guesses.items()), key=lambda kv: (kv[1], -kv[0].index))
        sure = frames >= 0.5 * self.unnamed and frames >= GUESS_SHARE * sum(len(ws) for ws in self.guesses.values())
        return card if sure else None


class CardTracker:
    """Feed it each frame's detections (with zones); it returns the observations to send."""

    def __init__(self, confirm_frames: int = 3, leave_frames: int = 5, min_confidence: float = 0.8, match_frac: float = 0.45) -> None:
        self.confirm_frames = confirm_frames
        self.leave_frames = leave_frames
        self.min_confidence = min_confidence
        self.match_frac = match_frac
        self.tracks: list[Track] = []
        self.origins: list[Track] = []  # the track behind each observation of the last update

    def update(
        self,
        ts_ms: int,
        found: Sequence[CardFound],
        covered: Callable[[tuple[float, float], float], bool] | None = None,
    ) -> list[Observation]:
        """``covered(centre, size)`` says whether something other than felt is at a place now."""
        out: list[Observation] = []
        self.origins = []
        dets = [f for f in found if f.zone is not None and f.zone != "pot"]
        unmatched = set(range(len(dets)))
        pairs = []
        for ti, tr in enumerate(self.tracks):
            for di, d in enumerate(dets):
                dist = math.dist(tr.centre, d.centre)
                if dist < self.match_frac * tr.size:
                    same = d.card is not None and bool(tr.votes) and d.card == tr.leader()[0]
                    pairs.append((dist - (1000.0 if same else 0.0), ti, di))
        pairs.sort()
        used_t: set[int] = set()
        for _, ti, di in pairs:
            if ti in used_t or di not in unmatched:
                continue
            used_t.add(ti)
            unmatched.discard(di)
            self._observe(self.tracks[ti], dets[di])
        self._match_in_zone(dets, unmatched, used_t)
        for di in sorted(unmatched):
            d = dets[di]
            tr = Track(d.zone or "", d.centre, _size(d), ts_ms)
            self._observe(tr, d)
            self.tracks.append(tr)
            used_t.add(len(self.tracks) - 1)
        hidden = {ti for ti, tr in enumerate(self.tracks)
                  if ti not in used_t and tr.reported and covered is not None and covered(tr.centre, tr.size)}
        # Face-down cards have no names to tell them apart, so their count is what a zone holds: a pile
        # cut another way gives a card a second track while the first is still held, and only as many
        # face-down cards are reported as a zone's frame shows (the held ones among them).
        shown = Counter(d.zone for d in dets if not d.face_up)
        laid = Counter(tr.zone for ti, tr in enumerate(self.tracks)
                       if (ti in used_t or ti in hidden) and tr.reported and tr.reported_face_up is False and not tr.face_up)
        keep: list[Track] = []
        for ti, tr in enumerate(self.tracks):
            if ti not in used_t:
                if ti in hidden:
                    tr.misses = 0  # hidden, not gone (a card not yet reported has to show itself)
                else:
                    tr.misses += 1
                if not tr.reported and tr.misses >= 2:
                    continue  # a flicker: never reported, silently dropped
                if tr.reported and tr.misses >= self.leave_frames:
                    if not (tr.zone == "shoe" and tr.reported_face_up):
                        out.append(CardLeft(Zone.parse(tr.zone), tr.reported_card, "camera", ts_ms))
                        self.origins.append(tr)
                    continue
            keep.append(tr)
            if tr.hits >= self.confirm_frames and tr.misses == 0 and tr.face_frames >= self.confirm_frames:
                card, share = tr.identity(self.min_confidence)
                if card is not None and self._named_elsewhere(tr, card):
                    card = None
                # A face-up card waits a little for a confident name before it is reported unnamed,
                # and a name its frames dispute (a club read as a spade in some) waits as long.
                waited = tr.face_frames >= 2 * self.confirm_frames
                decided = not tr.face_up or waited or (card is not None and not tr.contested(card))
                news = not tr.reported or tr.face_up != tr.reported_face_up
                if tr.reported and not news and tr.face_up and card is not None and tr.reported_card is None:
                    tr.reported_card = card  # named late: said when it leaves, not as a second card
                if decided and news and not tr.reported and not tr.face_up:
                    if laid[tr.zone] >= shown[tr.zone]:
                        continue  # the zone's face-down cards are all reported: a re-cut, not a card more
                    laid[tr.zone] += 1
                if decided and news:
                    conf = share if tr.face_up else 1.0
                    guess = tr.guess() if tr.face_up and card is None else None
                    if guess is not None and self._named_elsewhere(tr, guess):
                        guess = None
                    out.append(CardSeen(Zone.parse(tr.zone), tr.face_up, card if tr.face_up else None, round(conf, 3), "camera",
                                        ts_ms, guess))
                    self.origins.append(tr)
                    tr.reported = True
                    tr.reported_face_up = tr.face_up
                    tr.reported_card = card if tr.face_up else None
        self.tracks = keep
        return out

    def _named_elsewhere(self, tr: Track, card: Card) -> bool:
        """Whether another card on the table was already reported as ``card``. A deck holds one of
        each card, and the reader's likeliest mistake is a suit of the same colour (a king of clubs
        read as the king of spades that lies on the board): the later name is withheld, and the card
        is reported unnamed, rather than raise a foul-deck alert on a misread (DEAL-DECK). A deck
        that really holds a card twice is still caught by the shoe (a smart shoe reads it twice;
        a counting shoe counts a 53rd card)."""
        return any(t is not tr and t.reported and t.reported_card == card for t in self.tracks)

    def _match_in_zone(self, dets: Sequence[CardFound], unmatched: set[int], used_t: set[int]) -> None:
        """Unread cards that overlap (a face-down pair, the burn pile) are split apart afresh in
        every frame, and where the split falls can move by half a card. A card of that kind that
        matched nothing takes a track of the same zone and face that also matched nothing, within
        a card's length: the same cards, cut differently, and not a card more."""
        for di in sorted(unmatched, key=lambda i: (dets[i].centre[1], dets[i].centre[0])):
            d = dets[di]
            if d.card is not None:
                continue
            near = [(math.dist(tr.centre, d.centre), ti) for ti, tr in enumerate(self.tracks)
                    if ti not in used_t and tr.zone == d.zone and tr.face_up == d.face_up and not tr.votes
                    and math.dist(tr.centre, d.centre) < tr.size]
            if near:
                ti = min(near)[1]
                used_t.add(ti)
                unmatched.discard(di)
                self._observe(self.tracks[ti], d)

    def _observe(self, tr: Track, d: CardFound) -> None:
        tr.hits += 1
        tr.misses = 0
        # Follow slow drift, but the zone stays the one it landed in.
        tr.centre = (0.7 * tr.centre[0] + 0.3 * d.centre[0], 0.7 * tr.centre[1] + 0.3 * d.centre[1])
        tr.corners = d.corners
        # The size too: a card first seen half under the dealer's hand looks small.
        tr.size = 0.7 * tr.size + 0.3 * _size(d)
        if tr.hits == 1:
            tr.face_up = d.face_up
        if d.face_up != tr.face_up:
            tr.other_run += 1
            if d.card is not None:
                tr.pending[d.card] = tr.pending.get(d.card, 0.0) + d.confidence
            elif d.face_up:
                tr.pending_unnamed += 1
                _lean(tr.pending_guesses, d)
            if tr.other_run < self.confirm_frames:
                return  # one odd frame does not turn a card over
            # Turned over in place: identity evidence starts again from this face.
            tr.face_up = d.face_up
            tr.face_frames = tr.other_run
            tr.votes, tr.pending = tr.pending, {}
            tr.unnamed, tr.guesses = tr.pending_unnamed, tr.pending_guesses
            tr.pending_unnamed, tr.pending_guesses = 0, {}
            tr.other_run = 0
            return
        tr.other_run = 0
        tr.pending = {}
        tr.pending_unnamed, tr.pending_guesses = 0, {}
        tr.face_frames += 1
        if d.face_up:
            if d.card is not None:
                tr.votes[d.card] = tr.votes.get(d.card, 0.0) + d.confidence
            else:
                tr.unnamed += 1
                _lean(tr.guesses, d)


def _lean(guesses: dict[Card, list[float]], d: CardFound) -> None:
    """An unnamed frame's leanings: the name its reads lean to, or each of the names its corners
    were torn between (a 10 of clubs read Ts at 0.98 at one corner and Tc at 0.90 at the other:
    such a frame stands against the Ts that the frames round it name, as the shoe's Tc showed)."""
    if d.guess is not None:
        guesses.setdefault(d.guess, []).append(d.confidence)
    for card, confidence in d.torn:
        guesses.setdefault(card, []).append(confidence)


def _size(d: CardFound) -> float:
    xs = [p[0] for p in d.corners]
    ys = [p[1] for p in d.corners]
    return max(20.0, math.hypot(max(xs) - min(xs), max(ys) - min(ys)) / 1.5)
