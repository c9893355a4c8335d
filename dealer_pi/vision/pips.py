"""A card's pips (or a court's picture) vouch for the suit its corner index reads as, or against it.

The reader's likeliest mistake is one suit for the other of its colour: a club for a spade at
8-15 pixels, where the two differ by a few pixels of lobe, or any suit in a grey-scale picture,
where colour cannot tell them apart (or a blurred black index, washed out to grey, read as red).
Such a misread is confident (0.85-0.96 a corner on the real table shots) and it repeats on the
card's other corner, so neither a higher bar nor a second corner stops it. The middle of a 2-10
shows its suit again, in pips larger than the index's: each pip is put to the suit head as if it
were the index's suit glyph, turned the way it is printed (upside down beyond the card's middle).

* **Against**: where the pips that read surely as another suit outnumber those that read as the
  index's, the index is not trusted with a name.
* **For**: where two or more pips printed larger than the index's suit glyph read surely as its
  suit, none surely as another, and no more of them lie on the card than the rank prints, the
  suit is settled and the read is as sure as its rank. A small index's club and spade differ by
  a few pixels; the pips are drawn larger. The other corner's suit glyph, the index's own size,
  would repeat the index's own misread, so it does not vouch; and the count keeps a misread rank
  (a 3 read on an 8 of hearts) from borrowing the eight hearts' certainty.
* **Courts**: a jack, queen or king prints its suit beside the figure, once in each half of the
  picture, larger than the index's. A court unsure of its suit is settled by one such sign
  (the other half lies under the next card where a hand is fanned), and no more than two may read;
  one sure sign of another suit, with none of its own, leaves it unnamed (the other corner's
  suit glyph counts here: two corners that disagree are no name). More than two signs of its own
  suit leave any court unnamed, however sure of its suit: they are a number card's pips, round a
  rank misread as a court's. Counted so, a pip need be less sure it is a suit at all
  (:data:`NUMBER_IS_SUIT`): the check can only take a name away.
* **Too many pips**: the same count leaves any number card unnamed, however sure of its suit,
  where more signs of its suit lie round it than its rank prints: a higher card's pips round a
  misread rank (the printed design's 8 of hearts read 3h at 0.99).
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass

import numpy as np

from .card_shape import outline
from .glyphs import GRID, Blobs, Hypothesis, features

# A pip is printed larger than the index's suit glyph (1.5-3 times on the decks measured); the
# other corner's suit glyph, at the same size, reads the same way and counts too.
PIP_SIZE = (0.9, 4.0)
# Pips this near the card's middle (a share of the card's height) may be printed either way up.
MIDDLE_BAND = 0.08
NUMBER_RANKS = range(0, 9)  # rank classes of the 2 to the 10: the cards that have pips
COURT_RANKS = range(9, 12)  # the jack, queen and king: their picture shows the suit, once in each half
COURT_PRINTS = 2  # suit signs in a court's picture
COURT_VOUCHERS = 1  # the other half's sign lies under the next card where a court is fanned
IS_SUIT = 0.5  # a pip read as "not a suit" this surely is no pip (a rank glyph, a picture's fold)
# Counted against a court (the number-card check), which can only unname a card, a pip may be less
# sure it is a suit at all: the design never trained on prints its ten of diamonds' pips at 1.8
# times its index's suit glyph, and the suit head, which learnt suits of an index's size, gave
# them 0.38-0.61 "not a suit", each 1.0 a diamond among the four. Read as signs, two of eight
# counted, and the ten's upper "10", read as a king, kept the name Kd.
NUMBER_IS_SUIT = 0.7
SURE = 0.95  # a pip's suit counts when this sure among the four: the drawn deck's 12-pixel club pips read as spades at up to 0.94
# A pip stands against the index only when this sure of its suit before the "not a suit" share
# is set aside: the drawn deck's 10 of clubs at 1080p has pips read 0.46-0.69 spade with 0.28-0.52
# "not a suit" (0.96 spade among the four), which took its name away in two frames of three. For
# the index such pips still count: a real 8 of clubs (WIN_20240627_17_18_46) is vouched for by
# club pips read 0.52-0.72 with the same doubt, and no floor tells the two apart.
AGAINST_AT_LEAST = 0.75
# A pip vouches only when this much larger than the index's suit glyph (the drawn deck's: 1.25),
# and no larger than the upper bound: three of the drawn deck's club pips touching at 1080p make
# one blob 3.2 times the glyph, which the suit head reads as a spade.
VOUCH_SIZE = (1.15, 3.0)
OTHER_INDEX_REACH = 1.5  # rank glyph heights round the other corner's suit glyph, which vouches for nothing
VOUCHERS = 2  # pips that must agree, with none against, for the suit to be settled
# The other suit of each suit's colour (classes c d h s): the one a small index's suit is misread as.
SAME_COLOUR = (3, 2, 1, 0)
PIPS_AT_MOST = 10  # the most pips a number card prints
_GEOMETRY = 2 * GRID * GRID  # where a feature row's geometry starts


@dataclass(frozen=True)
class Seen:
    """The index reads of a picture: their glyphs, the cards they name (``Card.index``), and the
    outline each card has if its index is one of the card's corners."""

    hys: Sequence[Hypothesis]
    cards: np.ndarray  # M
    rows: np.ndarray  # M x FEATURES: each read's feature row, as the reader saw it
    outlines: np.ndarray  # M x 4 x 2: the corner by the index, then round the card

    @staticmethod
    def of(hys: Sequence[Hypothesis], cards: Sequence[int], rows: np.ndarray) -> Seen:
        outlines = np.array([outline(h.rank_xy, h.suit_xy)[1] for h in hys], np.float64).reshape(-1, 4, 2)
        return Seen(hys, np.asarray(cards, np.int64), rows, outlines)


def _shares(outlines: np.ndarray, points: np.ndarray) -> np.ndarray:
    """M x N x 2: each of ``points`` (N x 2) as shares of each outline's two edges from its
    first corner (across the card, then down it)."""
    edges = np.stack([outlines[:, 1] - outlines[:, 0], outlines[:, 3] - outlines[:, 0]], axis=1)  # M x 2 x 2
    rel = points[None, :, :] - outlines[:, None, 0]  # M x N x 2
    return np.asarray(np.einsum("mnk,mek->mne", rel, edges) / np.maximum((edges * edges).sum(axis=2), 1e-9)[:, None, :])


def _inside(shares: np.ndarray) -> np.ndarray:
    """An outline is a rectangle: a point lies on it when both its shares are in [0, 1]."""
    return np.asarray(((shares >= 0) & (shares <= 1)).all(axis=-1))


def verdicts(blobs: Blobs, seen: Seen, asked: Sequence[int], suit_probs: Callable[[np.ndarray], np.ndarray],
             unsure: Collection[int] = ()) -> tuple[set[int], dict[int, int]]:
    """Which of the reads ``asked`` (places in ``seen``) have pips that outvote their suit, and
    for which of those in ``unsure`` (the reads not already sure of it) the pips vouch: for its
    suit, or, where they outvote it, for the other suit of its colour (see the module's text);
    each such read with the suit (0-3) vouched for.

    ``suit_probs``: the suit head's five probabilities for feature rows. Every other suit is a
    rival: a blurred black index can read red where its colour is washed out to grey."""
    sizes = np.maximum(blobs.stats[:, 2], blobs.stats[:, 3])
    places = _Places.of(blobs, seen, asked, sizes)
    pairs = [pip_pairs(seen, n, sizes, places) for n in asked]
    if not any(pairs):
        return set(), {}
    signs = _read_pips(blobs, seen, asked, pairs, suit_probs)
    doubted: set[int] = set()
    vouching: list[tuple[int, int, dict[int, int]]] = []
    for n, ps, (said, firm, loose) in zip(asked, pairs, signs):
        card = int(seen.cards[n])
        suit, court = card % 4, card // 4 in COURT_RANKS
        rivals = [k for k in range(4) if k != suit]
        printed, least = _prints(card // 4)
        # A read unsure of its suit is doubted by as many sure signs as would settle it: one for a
        # court, whose other sign may lie under its frame or the next card. A court sure of its
        # suit is not (its picture's ornaments read as suits); any read is asked whether more
        # signs of its suit lie round it than its card prints.
        chosen = _vouchers(seen, n, ps, sizes)
        if not (court and n not in unsure) and _outvoted(said, firm, suit, rivals, least=least if n in unsure else VOUCHERS):
            doubted.add(n)
            if n in unsure and not court and _vouch(_among(said, chosen), SAME_COLOUR[suit], PIPS_AT_MOST, least):
                vouching.append((n, SAME_COLOUR[suit], {p.suit_id: s for p, s in zip(ps, said)}))
            continue
        if _more_than_printed(_among(loose, chosen), suit, printed):
            doubted.add(n)
        elif n in unsure and _vouch(_among(said, chosen), suit, PIPS_AT_MOST, least):
            vouching.append((n, suit, {p.suit_id: s for p, s in zip(ps, said)}))
    if not vouching:
        return doubted, {}
    # Counted against the rank, the pips are all those on the card, whichever index is nearer
    # them: a misread rank can split a card's corners into two "cards" and its pips. A pip
    # already read for the index is the same pair again; only the others are read now.
    every = [pip_pairs(seen, n, sizes, places, claimed=False) for n, _, _ in vouching]
    fresh = [[p for p in ps if p.suit_id not in known] for ps, (_, _, known) in zip(every, vouching)]
    if any(fresh):
        for (n, _, known), ps, (said, _, _) in zip(vouching, fresh, _read_pips(blobs, seen, [n for n, _, _ in vouching], fresh, suit_probs)):
            known.update(zip((p.suit_id for p in ps), said))
    vouched: dict[int, int] = {}
    for (n, suit, known), ps in zip(vouching, every):
        printed, least = _prints(int(seen.cards[n]) // 4)
        if _vouch(_among([known[p.suit_id] for p in ps], _vouchers(seen, n, ps, sizes)), suit, printed, least):
            vouched[n] = suit
            doubted.discard(n)
    return doubted, vouched


def _more_than_printed(said: list[int], suit: int, printed: int) -> bool:
    """Whether a read has more signs of its ``suit`` round it (``said``: what the signs that may
    vouch read as) than its card prints (``printed``): a higher number card's pips, round an index
    misread as a court's or a lower card's. The printed design never trained on read a 10 of
    diamonds' "10" as a K at 0.95-0.96, with five of its diamonds read surely, and an 8 of hearts'
    "8" as a 3 at 0.99, with its hearts round it."""
    return said.count(suit) > printed


def _among(said: list[int], chosen: np.ndarray) -> list[int]:
    return [s for s, c in zip(said, chosen.tolist()) if c]


def _read_pips(blobs: Blobs, seen: Seen, reads: Sequence[int], pairs: Sequence[Sequence[Hypothesis]],
               suit_probs: Callable[[np.ndarray], np.ndarray]) -> list[tuple[list[int], list[bool], list[int]]]:
    """What each read's pip pairs (``pairs[k]`` of read ``reads[k]``) say, all put to the suit
    head in one batch (see :func:`_signs`): as signs, whether firmly, and as a number card's pips.
    Each pip is asked as its index's suit glyph: the pair's geometry stays the index's own."""
    rows = features(blobs, [p for ps in pairs for p in ps], suit_only=True)
    counts = [len(ps) for ps in pairs]
    rows[:, _GEOMETRY:] = np.repeat(seen.rows[list(reads), _GEOMETRY:], counts, axis=0)
    probs = suit_probs(rows)
    said, firm = _signs(probs)
    loose = _signs(probs, NUMBER_IS_SUIT)[0]
    out = []
    start = 0
    for k in counts:
        out.append((said[start : start + k], firm[start : start + k], loose[start : start + k]))
        start += k
    return out


def _prints(rank: int) -> tuple[int, int]:
    """How many suit signs a card of rank class ``rank`` prints larger than its index, and how
    many of them must vouch for a suit read unsure (or stand against it)."""
    return (COURT_PRINTS, COURT_VOUCHERS) if rank in COURT_RANKS else (rank + 2, VOUCHERS)


def _vouchers(seen: Seen, n: int, pairs: Sequence[Hypothesis], sizes: np.ndarray) -> np.ndarray:
    """Which of read ``n``'s pip pairs may vouch: pips printed larger than its suit glyph (but
    not pips run together into one blob), and none where the card's other corner index lies
    (through the card's middle from this one)."""
    if not pairs:
        return np.zeros(0, bool)
    hy = seen.hys[n]
    xy = np.array([p.suit_xy for p in pairs], np.float64)
    other = 2 * seen.outlines[n].mean(axis=0) - np.asarray(hy.suit_xy, np.float64)
    far = np.hypot(*(xy - other).T) > OTHER_INDEX_REACH * hy.size
    own = sizes[[p.suit_id for p in pairs]] / sizes[hy.suit_id]
    return np.asarray((own >= VOUCH_SIZE[0]) & (own <= VOUCH_SIZE[1]) & far)


@dataclass(frozen=True)
class _Places:
    """Where each blob that may be a pip lies on every read's card (worked out once for all the
    reads asked: the same few hundred blobs are placed on each card in turn)."""

    ids: np.ndarray  # C: the blobs sized like a pip of some read asked
    xy: np.ndarray  # C x 2: their centroids
    shares: np.ndarray  # M x C x 2: see :func:`_shares`
    inside: np.ndarray  # M x C: whether it lies on read m's card
    dist: np.ndarray  # M x C: how far from read m's rank glyph

    @staticmethod
    def of(blobs: Blobs, seen: Seen, asked: Sequence[int], sizes: np.ndarray) -> _Places:
        suit_px = sizes[[seen.hys[n].suit_id for n in asked]]
        sized = (sizes >= PIP_SIZE[0] * suit_px.min()) & (sizes <= PIP_SIZE[1] * suit_px.max())
        # A side of a blob cut in two is no pip of its own: the blob it was cut from stands as it was.
        sized[: len(blobs.whole)] &= blobs.whole == np.arange(len(blobs.whole))
        ids = np.nonzero(sized)[0]
        xy = blobs.centroids[ids].astype(np.float64)
        shares = _shares(seen.outlines, xy)
        dist = np.hypot(*(xy[None, :, :] - np.array([h.rank_xy for h in seen.hys])[:, None, :]).transpose(2, 0, 1))
        return _Places(ids, xy, shares, _inside(shares), dist)


def pip_pairs(seen: Seen, n: int, sizes: np.ndarray, places: _Places, claimed: bool = True) -> list[Hypothesis]:
    """Read ``n``'s index with each pip-sized blob on its card in place of its suit glyph, the
    pair turned so that the pip stands as it is printed: upright in the index's half of the card,
    upside down in the other.

    Cards overlap, so a blob inside the card's outline may be printed on another card: a blob
    nearer the index of another card that it also lies on is that card's, not this one's
    (``claimed``; without it, every blob on the card counts). ``sizes``: each blob's larger side;
    ``places``: the blobs placed on every card (both worked out once for all reads)."""
    hy = seen.hys[n]
    suit_px = float(sizes[hy.suit_id])
    sized = (sizes >= PIP_SIZE[0] * suit_px) & (sizes <= PIP_SIZE[1] * suit_px)
    sized[[0, hy.suit_id, *hy.rank_ids]] = False  # 0: the paper round the print
    on_card = np.nonzero(sized[places.ids] & places.inside[n])[0]
    ids, xy = places.ids[on_card], places.xy[on_card]
    # Beyond the card's middle (share of its height over a half), the pips are printed upside down.
    along = places.shares[n, on_card, 1] - 0.5
    keep = np.abs(along) >= MIDDLE_BAND
    if claimed and keep.any() and len(seen.cards) > 1:
        rival = seen.cards != seen.cards[n]
        dist = places.dist[:, on_card]
        nearer = places.inside[:, on_card] & (dist < dist[n][None, :])
        keep &= ~(nearer & rival[:, None]).any(axis=0)
    step = (hy.suit_xy[0] - hy.rank_xy[0], hy.suit_xy[1] - hy.rank_xy[1])
    out: list[Hypothesis] = []
    for k, (x, y), a in zip(ids[keep].tolist(), xy[keep].tolist(), along[keep].tolist()):
        # The pair reads from rank to suit: for a pip upside down, the "rank" sits below it.
        sign = 1.0 if a > 0 else -1.0
        out.append(Hypothesis(hy.rank_ids, k, (x + sign * step[0], y + sign * step[1]), (x, y), hy.size))
    return out


def outvoted(suit_probs: np.ndarray, suit: int, rivals: Collection[int], least: int = VOUCHERS) -> bool:
    """Whether at least ``least`` pips read surely as one of ``rivals``, more than read as ``suit``.

    ``suit_probs``: the suit head's five probabilities (c, d, h, s, not a suit) per pip."""
    return _outvoted(*_signs(suit_probs), suit, rivals, least)


def _outvoted(said: list[int], firm: list[bool], suit: int, rivals: Collection[int], least: int) -> bool:
    against = sum(1 for s, f in zip(said, firm) if f and s in rivals)
    return against >= least and against > said.count(suit)


def _signs(suit_probs: np.ndarray, is_suit: float = IS_SUIT) -> tuple[list[int], list[bool]]:
    """The suit (0-3) each pip reads as surely (see :data:`SURE`; ``is_suit``: see :data:`IS_SUIT`),
    or -1; and whether it is sure enough of it to stand against an index (:data:`AGAINST_AT_LEAST`)."""
    suits = suit_probs[:, :4] / np.maximum(suit_probs[:, :4].sum(axis=1, keepdims=True), 1e-9)
    counted = (suit_probs[:, 4] < is_suit) & (suits.max(axis=1) >= SURE)
    said = np.where(counted, suits.argmax(axis=1), -1)
    return said.tolist(), (suit_probs[:, :4].max(axis=1) >= AGAINST_AT_LEAST).tolist()


def vouch(suit_probs: np.ndarray, suit: int, printed: int, least: int = VOUCHERS) -> bool:
    """Whether at least ``least`` pips read surely as ``suit``, none surely as another, and no
    more than the ``printed`` pips of the rank read: a 3 read on an 8 of hearts has eight heart
    pips round it, which vouch for the hearts but not for the 3."""
    return _vouch(_signs(suit_probs)[0], suit, printed, least)


def _vouch(said: list[int], suit: int, printed: int, least: int) -> bool:
    agree = said.count(suit)
    return least <= agree <= printed and agree == sum(1 for s in said if s >= 0)
