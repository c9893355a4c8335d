"""The dealing-procedure monitor: every card observation against the expected deal.

The monitor knows who is dealt in (in dealing order, first left of the
button) and what the betting allows (a :class:`BettingView` from the betting
engine), so it knows what should come next: two rounds of hole cards one at a
time (DEAL-ORDER), then a burn before the flop, the turn and the river
(DEAL-BURN). Every observation that breaks that sequence raises an alert; the
correction the rule asks for is then tracked to its end (:class:`Procedure`).

The monitor never refuses a sensor observation: a sensor reports a fact (or a
misread), which becomes an alert, never an error. Where sources disagree or
something was not seen it raises an ``uncertain`` notice, never a misdeal.
Each shoe draw is expected to be followed by the card seen where it lands.

Accepted cards are handed on as betting-engine entries (``HoleCardsDealt``,
``CardBurned``, ``BoardDealt``, ``HandShown``) in :attr:`Step.entries`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Final

from ..cards import Card
from ..events import BoardDealt, CardBurned, Entry, HandShown, HoleCardsDealt
from ..observations import (
    CardLeft,
    CardSeen,
    ChipsPushed,
    Observation,
    PlayerAction,
    ShoeDraw,
)
from ..profiles import RuleProfile
from . import remedies as R
from .alerts import AlertRaised, MonitorEvent, ProcedureCompleted, Verdict

MIN_CONFIDENCE: Final = 0.8  # below this a camera read is a hint, never grounds for a misdeal
BOARD_NEED: Final = (0, 3, 1, 1)  # cards per board street (index 1 flop, 2 turn, 3 river)
STREET: Final = ("", "flop", "turn", "river")


@dataclass(frozen=True, slots=True)
class BettingView:
    """What the betting engine says about the hand, as far as dealing is concerned.

    ``rounds_closed``: betting rounds finished (0 while the preflop betting is
    open, 1 once the flop may be dealt, ..., 4 when no betting is left).
    ``hand_over``: one player left, so no card may be turned (DEAL-NO-RABBIT).
    ``voluntary_actors``: players past the blinds who have acted (DEAL-MISDEAL-LOCK).
    ``live``: seats still holding cards. ``complete``: the pots are awarded. ``cards_up``: no betting is left (an all-in
    runout or the showdown), so hands may be turned up (POT-ALL-IN-SHOW).
    """

    rounds_closed: int = 0
    hand_over: bool = False
    voluntary_actors: int = 0
    live: frozenset[int] = frozenset()
    cards_up: bool = False
    complete: bool = False  # the hand is over (pots awarded): a new deal needs "new hand"


@dataclass(slots=True)
class Procedure:
    """A correction being tracked: ``kind`` is replace-exposed, extra-to-burn,
    redeal-street, turn-early or river-early."""

    kind: str
    alert_id: str
    rule: str
    seat: int = 0
    card: Card | None = None
    street: int = 0
    stage: int = 0  # replace-exposed: bit 1 replaced, bit 2 burned; turn-early: 1 once the turn is out


@dataclass(slots=True)
class Step:
    """What one observation produced."""

    events: list[MonitorEvent] = field(default_factory=list)
    entries: list[Entry] = field(default_factory=list)
    retract_board: int = 0  # board streets the betting engine must forget (a flop or card put back)


@dataclass(slots=True)
class OpenAlert:
    alert: AlertRaised
    would_be: Verdict  # what confirming an uncertain notice means
    lockable: bool = True  # False: a misdeal even after DEAL-MISDEAL-LOCK (foul deck, 001 extra cards)


class DealMonitor:
    """Tracks one hand's dealing at a time; alert IDs run across the session."""

    def __init__(self, profile: RuleProfile, first_alert: int = 1) -> None:
        self.profile = profile
        self.next_alert = first_alert
        self.open: dict[str, OpenAlert] = {}
        self.start_hand((), 0)

    # ------------------------------------------------------------ hand lifecycle

    def start_hand(self, order: tuple[int, ...], hand_no: int) -> None:
        """A new deal: ``order`` are the seats dealt in, first left of the button."""
        self.order = order
        self.hand_no = hand_no
        self.hole: dict[int, list[Card | None]] = {s: [] for s in order}
        self.deal_pos = 0
        self.deal_done = False
        self.dealer_exposed = 0
        self.extra_cards = 0
        self.pending: tuple[int, Card | None] | None = None
        self.board: list[Card] = []
        self.street_cards: list[Card] = []
        self.streets_done = 0
        self.burns_this_street = 0
        self.burns: list[Card | None] = []
        self.actions_since_board = 0
        self.swallow = 0
        self.seen: dict[Card, str] = {}
        self.out_of_deck = 0
        self.procs: list[Procedure] = []
        self.misdeal_alert: str | None = None
        self.shown: dict[int, list[Card]] = {}
        self.player_exposed: set[tuple[int, Card | None]] = set()
        self.early_deal_noticed = False
        self.last_zone: str | None = None  # where the last drawn card landed
        self.open.clear()  # alerts belong to their hand

    # ------------------------------------------------------------ alerts

    def _raise(self, step: Step, at: int, rule: str, verdict: Verdict, remedy: str,
               seat: int | None = None, card: Card | None = None, would_be: Verdict | None = None) -> str:
        if self.misdeal_alert is not None:
            return ""  # one misdeal is enough: until the dealer answers it, more alerts are noise
        alert_id = f"a{self.next_alert}"
        self.next_alert += 1
        a = AlertRaised(alert_id, rule, verdict, remedy, at, seat, card)
        step.events.append(a)
        self.open[alert_id] = OpenAlert(a, would_be or verdict)
        return alert_id

    def _misdeal(self, step: Step, at: int, view: BettingView, rule: str, remedy: str, what: str,
                 seat: int | None = None, card: Card | None = None, lockable: bool = True) -> None:
        """A misdeal, unless DEAL-MISDEAL-LOCK says the hand plays on."""
        lock = self.profile.misdeal_lock_actions
        if lockable and lock and view.voluntary_actors >= lock:
            self._raise(step, at, "DEAL-MISDEAL-LOCK", Verdict.INFORMATION,
                        R.misdeal_locked(self.profile, rule, what), seat, card)
            return
        aid = self._raise(step, at, rule, Verdict.MISDEAL, remedy, seat, card)
        if aid:
            self.misdeal_alert = aid
            self.open[aid].lockable = lockable

    def _uncertain(self, step: Step, at: int, rule: str, what: str, seat: int | None = None,
                   card: Card | None = None, would_be: Verdict = Verdict.INFORMATION) -> None:
        self._raise(step, at, rule, Verdict.UNCERTAIN, R.uncertain(what), seat, card, would_be)

    def notice(self, at: int, rule: str, what: str) -> list[AlertRaised]:
        """An uncertain notice from outside the monitor (the betting engine refused a card)."""
        step = Step()
        self._uncertain(step, at, rule, what)
        return [e for e in step.events if isinstance(e, AlertRaised)]

    def close_alert(self, alert_id: str) -> OpenAlert:
        """Forget an answered alert (and the procedure it started); KeyError if not open."""
        oa = self.open.pop(alert_id)
        self.procs = [p for p in self.procs if p.alert_id != alert_id]
        if self.misdeal_alert == alert_id:
            self.misdeal_alert = None
        return oa

    # ------------------------------------------------------------ deck accounting (DEAL-DECK)

    def _release(self, cards: list[Card | None]) -> None:
        """Cards put back into the deck by a correction: they may come out again."""
        for c in cards:
            self.out_of_deck -= 1
            if c is not None:
                self.seen.pop(c, None)

    def _note_card(self, step: Step, at: int, view: BettingView, card: Card | None, where: str) -> None:
        if card is None:
            return
        before = self.seen.get(card)
        if before is not None and before != where:
            # Only the camera saw it twice, and cameras misread: the dealer checks (a confirmed
            # foul deck is a misdeal whatever the betting). The shoe's reads are trusted in _draw.
            aid = self._raise(step, at, "DEAL-DECK", Verdict.UNCERTAIN,
                              R.uncertain(f"{card} seen at {where} but it is already at {before}, so the deck may be foul"),
                              card=card, would_be=Verdict.MISDEAL)
            if aid:
                self.open[aid].lockable = False
        self.seen[card] = where

    # ------------------------------------------------------------ the entry point

    def observe(self, at: int, obs: Observation, view: BettingView) -> Step:
        step = Step()
        if self.pending is not None and not isinstance(obs, (CardSeen, CardLeft)):
            # A card leaving some place (a fold reaching the muck, seen a moment late) says nothing
            # about where the drawn card lands: only what comes next from the shoe or the dealer does.
            self._lost_landing(step, at, view)
        if isinstance(obs, ShoeDraw):
            self._draw(step, at, obs.card, view)
        elif isinstance(obs, CardSeen):
            if self.pending is not None:
                self._landing(step, at, obs, view)
            else:
                self._sighting(step, at, obs, view)
        elif isinstance(obs, CardLeft):
            self._left(step, at, obs, view)
        elif isinstance(obs, (PlayerAction, ChipsPushed)):
            if not self.deal_done and self.order:
                self._deal_end(step, at, view)
            self.actions_since_board += 1
            self.swallow = 0
        return step

    # ------------------------------------------------------------ shoe

    def _draw(self, step: Step, at: int, card: Card | None, view: BettingView) -> None:
        self.out_of_deck += 1
        self.last_zone = None
        if self.out_of_deck > 52:
            self._misdeal(step, at, view, "DEAL-DECK", R.foul_deck("a 53rd card came out of the shoe"),
                          "a 53rd card", card=card, lockable=False)
        if card is not None:
            if card in self.seen:
                self._misdeal(step, at, view, "DEAL-DECK",
                              R.foul_deck(f"{card} came out of the shoe twice in one hand"),
                              f"{card} twice", card=card, lockable=False)
            self.seen[card] = "shoe"
        self.pending = (at, card)

    def _lost_landing(self, step: Step, at: int, view: BettingView) -> None:
        """A drawn card nobody saw land: assume it went where it should, and say so."""
        draw_at, card = self.pending or (at, None)
        self.pending = None
        if not self.deal_done and self.order:
            seat = self.order[self.deal_pos % len(self.order)]
            self._uncertain(step, draw_at, "DEAL-ORDER",
                            f"a card left the shoe but was not seen landing; taken as dealt to seat {seat}",
                            seat=seat, would_be=Verdict.INFORMATION)
            if card is not None:
                self.seen[card] = f"seat:{seat}"
            self._hole_card(step, draw_at, seat, card, view)
        else:
            self._uncertain(step, draw_at, "DEAL-BURN",
                            "a card left the shoe but was not seen landing; taken as a burn card")
            if card is not None:
                self.seen[card] = "burn"
            self._burn(step, draw_at, card, view)

    # ------------------------------------------------------------ cards landing after a draw

    def _landing(self, step: Step, at: int, obs: CardSeen, view: BettingView) -> None:
        shoe_card = self.pending[1] if self.pending else None
        self.pending = None
        self.last_zone = str(obs.zone)
        cam = obs.card if obs.confidence >= MIN_CONFIDENCE else None
        card = shoe_card or cam
        if shoe_card is not None and cam is not None and cam != shoe_card:
            self._uncertain(step, at, "DEAL-DECK", f"the shoe read {shoe_card} but the camera saw {cam}",
                            card=shoe_card)
        elif shoe_card is None and cam is not None:
            self._note_card(step, at, view, cam, "shoe")
        kind = obs.zone.kind
        if card is not None and self.seen.get(card) == "shoe":
            self.seen[card] = str(obs.zone)
        if kind == "seat":
            assert obs.zone.seat is not None
            self._hole_landing(step, at, obs.zone.seat, obs, card, view)
        elif kind == "board":
            self._board_card(step, at, card, view)
        elif kind == "shoe":
            self._release([card])
            if obs.face_up:
                self._faceup_in_deck(step, at, card, view)
        else:  # burn, or a drawn card discarded to the muck
            self._burn(step, at, card, view)

    def _faceup_in_deck(self, step: Step, at: int, card: Card | None, view: BettingView) -> None:
        self._raise(step, at, "DEAL-FACEUP-IN-DECK", Verdict.IRREGULARITY, R.faceup_in_deck(card), card=card)
        if card is not None:
            self.seen[card] = "bottom"  # out of play this hand: seeing it again means a foul deck
        self.out_of_deck += 1

    def _hole_landing(self, step: Step, at: int, seat: int, obs: CardSeen, card: Card | None,
                      view: BettingView) -> None:
        if view.complete and not obs.face_up:
            if not self.early_deal_noticed:
                self.early_deal_noticed = True
                self._uncertain(step, at, "DEAL-ORDER",
                                "a card was dealt to a seat but the last hand is over: declare \"new hand\" first",
                                seat=seat)
            return
        if self.deal_done:
            self._after_deal_hole(step, at, seat, card, view)
            return
        if seat not in self.hole:
            self._misdeal(step, at, view, "DEAL-EMPTY-SEAT", R.empty_seat(seat), f"a card to seat {seat}",
                          seat=seat, card=card)
            return
        expected = self.order[self.deal_pos % len(self.order)]
        if seat != expected:
            self._misdeal(step, at, view, "DEAL-ORDER", R.out_of_order(seat, expected),
                          "a card dealt out of order", seat=seat, card=card)
            self.hole[seat].append(card)
            return
        first = self.deal_pos == 0
        if obs.face_up:
            if obs.confidence < MIN_CONFIDENCE:
                rule = "DEAL-FIRST-EXPOSED" if first else "DEAL-HOLE-EXPOSED"
                self._uncertain(step, at, rule, f"the card dealt to seat {seat} may have been face up",
                                seat=seat, card=card, would_be=Verdict.MISDEAL)
            elif first and self.profile.first_card_exposed_misdeal:
                self._misdeal(step, at, view, "DEAL-FIRST-EXPOSED", R.first_exposed(seat),
                              "the first card exposed", seat=seat, card=card)
            else:
                self.dealer_exposed += 1
                once = self.dealer_exposed == 1
                if self.profile.exposed_hole_card == "replace-one" and once:
                    aid = self._raise(step, at, "DEAL-HOLE-EXPOSED", Verdict.IRREGULARITY,
                                      R.hole_exposed(self.profile, seat, card, True), seat, card)
                    if aid:
                        self.procs.append(Procedure("replace-exposed", aid, "DEAL-HOLE-EXPOSED", seat, card))
                else:
                    self.procs = [p for p in self.procs if p.kind != "replace-exposed"]
                    self._misdeal(step, at, view, "DEAL-HOLE-EXPOSED",
                                  R.hole_exposed(self.profile, seat, card, once),
                                  "an exposed hole card", seat=seat, card=card)
        self._hole_card(step, at, seat, card, view)

    def _hole_card(self, step: Step, at: int, seat: int, card: Card | None, view: BettingView) -> None:
        if self.deal_done or seat not in self.hole:
            return
        self.hole[seat].append(card)
        self.deal_pos += 1
        if self.deal_pos == 2 * len(self.order):
            self.deal_done = True
            waiting = {p.seat for p in self.procs if p.kind == "replace-exposed"}
            step.entries.extend(HoleCardsDealt(s, tuple(self.hole[s])) for s in self.order if s not in waiting)

    def _after_deal_hole(self, step: Step, at: int, seat: int, card: Card | None, view: BettingView) -> None:
        for p in self.procs:
            if p.kind == "replace-exposed" and p.seat == seat and not p.stage & 1:
                p.stage |= 1
                self.hole[seat].append(card)
                self._replace_progress(step, at, p)
                return
        self.extra_cards += 1
        if seat not in self.hole:
            self._misdeal(step, at, view, "DEAL-EMPTY-SEAT", R.empty_seat(seat), f"a card to seat {seat}",
                          seat=seat, card=card)
            return
        self.hole[seat].append(card)
        to_burn_rule = self.profile.hole_count == "burn-first-extra"
        if to_burn_rule and self.extra_cards == 1 and seat == self.order[0] and self.streets_done == 0 \
                and self.burns_this_street == 0:
            aid = self._raise(step, at, "DEAL-HOLE-COUNT", Verdict.IRREGULARITY,
                              R.extra_hole(self.profile, seat, card, True, False), seat, card)
            if aid:
                self.procs.append(Procedure("extra-to-burn", aid, "DEAL-HOLE-COUNT", seat, card))
            self.hole[seat].pop()
            self._release([card])  # back on top of the deck: drawing it again is no foul
            return
        many = to_burn_rule and self.extra_cards >= 2
        self._misdeal(step, at, view, "DEAL-HOLE-COUNT", R.extra_hole(self.profile, seat, card, False, many),
                      f"an extra hole card to seat {seat}", seat=seat, card=card, lockable=not many)

    def _replace_progress(self, step: Step, at: int, p: Procedure) -> None:
        if p.stage == 3:
            self.procs.remove(p)
            cards = [c for c in self.hole[p.seat] if c is None or c != p.card]
            if p.card is None and len(cards) > 2:
                cards = cards[1:]
            self.hole[p.seat] = cards
            step.entries.append(HoleCardsDealt(p.seat, tuple(cards)))
            step.events.append(ProcedureCompleted(p.alert_id, p.rule, at))

    def _deal_end(self, step: Step, at: int, view: BettingView) -> None:
        """Something that comes after the deal happened: every seat must have two cards."""
        self.deal_done = True
        short = [s for s in self.order if len(self.hole[s]) < 2]
        if short:
            self._misdeal(step, at, view, "DEAL-HOLE-COUNT", R.short_deal(short),
                          "a player without two hole cards", seat=short[0])
        step.entries.extend(HoleCardsDealt(s, tuple(self.hole[s])) for s in self.order if s not in short)

    # ------------------------------------------------------------ burns and board

    def _burn(self, step: Step, at: int, card: Card | None, view: BettingView) -> None:
        if not self.deal_done and self.order:
            self._deal_end(step, at, view)
        self.swallow = 0
        for p in list(self.procs):
            if p.kind == "replace-exposed" and not p.stage & 2:
                self.procs.remove(p)
                self._raise(step, at, p.rule, Verdict.IRREGULARITY, R.procedure_broken(
                    p.rule, f"a card from the deck was burned instead of the exposed {R._c(p.card)}"), p.seat)
            elif p.kind == "extra-to-burn":
                self.procs.remove(p)
                if card is not None and p.card is not None and card != p.card:
                    self._raise(step, at, p.rule, Verdict.IRREGULARITY, R.procedure_broken(
                        p.rule, f"{card} was burned, not the extra card {p.card}"), p.seat, card)
                else:
                    step.events.append(ProcedureCompleted(p.alert_id, p.rule, at))
            elif p.kind == "turn-early" and p.stage == 1:
                self._raise(step, at, p.rule, Verdict.IRREGULARITY, R.procedure_broken(
                    p.rule, "the river is turned without a burn after the reshuffle"), card=card)
                self.procs.remove(p)
        self.burns_this_street += 1
        self.burns.append(card)
        step.entries.append(CardBurned(card))

    def _board_card(self, step: Step, at: int, card: Card | None, view: BettingView) -> None:
        if not self.deal_done and self.order:
            self._deal_end(step, at, view)
        if self.swallow > 0:  # the rest of a flop or card already ruled to go back
            self.swallow -= 1
            self._release([card])
            return
        for p in list(self.procs):
            if p.kind == "replace-exposed":
                self.procs.remove(p)
                self._raise(step, at, p.rule, Verdict.IRREGULARITY, R.procedure_broken(
                    p.rule, "the board was dealt before the exposed hole card was replaced and burned"), p.seat)
        if view.hand_over:
            self._raise(step, at, "DEAL-NO-RABBIT", Verdict.IRREGULARITY, R.no_rabbit(card), card=card)
            self._release([card])
            return
        k = self.streets_done + 1
        if self.street_cards:  # the rest of a flop
            self._accept_board(step, at, card, k)
            return
        untouched = self.burns_this_street == 0 and self.actions_since_board == 0 and self.streets_done > 0
        if k > 3:
            if untouched:
                self._board_extra(step, at, card, 3, "Too many cards")
            else:
                self._raise(step, at, "DEAL-NO-RABBIT", Verdict.IRREGULARITY, R.no_rabbit(card), card=card)
                self._release([card])
            return
        if view.rounds_closed < k:
            # Right after a street, with no burn and no betting in between, the card was
            # turned with that street (too many cards); otherwise it came too early.
            if untouched:
                self._board_extra(step, at, card, k - 1, "Too many cards")
            else:
                self._premature(step, at, card, k)
            return
        # No betting before this street (an all-in runout): a card without a burn is
        # read as this street's card turned without a burn (DEAL-BOARD-EXTRA), since
        # no sensor can tell it from one card too many on the street before.
        if self.burns_this_street == 0 and not self._no_burn_allowed(k):
            if k == 1:
                self._redeal_street(step, at, card, 1, "DEAL-FLOP-EXTRA", R.flop_extra("No burn before the flop"))
                self.swallow = 2
            else:
                self._board_extra(step, at, card, k, "No burn card", this_street=True)
            return
        self._accept_board(step, at, card, k)

    def _no_burn_allowed(self, k: int) -> bool:
        return any(p.kind in ("turn-early", "river-early") and k == 3 for p in self.procs)

    def _accept_board(self, step: Step, at: int, card: Card | None, k: int) -> None:
        if card is None:
            self._uncertain(step, at, "DEAL-BURN", f"a {STREET[k]} card could not be read: enter it", would_be=Verdict.INFORMATION)
            return
        self._note_card(step, at, BettingView(), card, "board")
        self.street_cards.append(card)
        if len(self.street_cards) < BOARD_NEED[k]:
            return
        self.board.extend(self.street_cards)
        step.entries.append(BoardDealt(tuple(self.street_cards)))
        self.street_cards = []
        self.streets_done = k
        self.burns_this_street = 0
        self.actions_since_board = 0
        for p in list(self.procs):
            if p.kind == "redeal-street" and p.street == k:
                self.procs.remove(p)
                step.events.append(ProcedureCompleted(p.alert_id, p.rule, at))
            elif p.kind == "turn-early" and k == 2:
                p.stage = 1
                self._release([p.card])  # reshuffled into the deck before the river
            elif p.kind in ("turn-early", "river-early") and k == 3:
                self.procs.remove(p)
                step.events.append(ProcedureCompleted(p.alert_id, p.rule, at))

    def _redeal_street(self, step: Step, at: int, card: Card | None, k: int, rule: str, remedy: str) -> None:
        aid = self._raise(step, at, rule, Verdict.IRREGULARITY, remedy, card=card)
        if aid:
            self.procs.append(Procedure("redeal-street", aid, rule, street=k, card=card))
        self._release([card])
        self.burns_this_street = 0

    def _board_extra(self, step: Step, at: int, card: Card | None, k: int, reason: str,
                     this_street: bool = False) -> None:
        """Too many cards (or no burn) at street ``k``: its cards go back; burn and deal it again."""
        back: list[Card | None] = [card]
        if not this_street:
            n = BOARD_NEED[k]
            back.extend(self.board[-n:])
            del self.board[-n:]
            self.streets_done = k - 1
            step.retract_board += 1
        if k == 1:
            self._redeal_street(step, at, card, 1, "DEAL-FLOP-EXTRA", R.flop_extra(f"{reason} on the flop"))
        else:
            self._redeal_street(step, at, card, k, "DEAL-BOARD-EXTRA", R.board_extra(STREET[k], reason))
        self._release(back[1:])
        self.swallow = 5  # every further card turned in the same motion goes back too

    def _premature(self, step: Step, at: int, card: Card | None, k: int) -> None:
        if k == 1:
            self._redeal_street(step, at, card, 1, "DEAL-FLOP-EXTRA",
                                R.flop_extra("The flop was dealt before the betting ended"))
            self.swallow = 2
            return
        rule = "DEAL-TURN-EARLY" if k == 2 else "DEAL-RIVER-EARLY"
        remedy = R.turn_early(card) if k == 2 else R.river_early(card)
        aid = self._raise(step, at, rule, Verdict.IRREGULARITY, remedy, card=card)
        if aid:
            self.procs.append(Procedure("turn-early" if k == 2 else "river-early", aid, rule, card=card, street=k))
        if card is not None:
            self.seen[card] = "out"
        if k == 2:
            self.burns_this_street = 0  # a new burn comes before the real turn
        else:
            self._release([card])  # reshuffled with the rest of the deck before the river

    # ------------------------------------------------------------ cards seen without a draw

    def _sighting(self, step: Step, at: int, obs: CardSeen, view: BettingView) -> None:
        card = obs.card if obs.confidence >= MIN_CONFIDENCE else None
        kind = obs.zone.kind
        if kind == "shoe":
            if obs.face_up:
                self._faceup_in_deck(step, at, card, view)
            return
        if kind == "seat":
            seat = obs.zone.seat
            assert seat is not None
            if not self.deal_done and not obs.face_up and self.order:
                if self.last_zone == str(obs.zone):
                    return  # the card just dealt there, reported again (a second camera, a re-read)
                expected = self.order[self.deal_pos % len(self.order)]
                self._uncertain(step, at, "DEAL-DECK", f"a card reached seat {seat} but the shoe did not count it",
                                seat=seat)
                if seat == expected:  # counted as the deal going on; never a misdeal on one source
                    self.out_of_deck += 1
                    self._hole_landing(step, at, seat, obs, card, view)
                return
            if obs.face_up:
                self._seat_face_up(step, at, seat, obs, card, view)
            return
        if kind == "burn":
            for p in self.procs:
                if p.kind == "replace-exposed" and not p.stage & 2 and (card is None or card == p.card):
                    p.stage |= 2
                    self.burns_this_street += 1
                    self.burns.append(p.card)
                    step.entries.append(CardBurned(p.card))
                    self._replace_progress(step, at, p)
                    return
            return
        if kind == "board" and card is not None and card not in self.board and card not in self.street_cards \
                and self.seen.get(card) not in ("out",):
            self._uncertain(step, at, "DEAL-DECK", f"{card} appeared on the board but the shoe did not count it",
                            card=card)
            self.out_of_deck += 1
            self._board_card(step, at, card, view)

    def _seat_face_up(self, step: Step, at: int, seat: int, obs: CardSeen, card: Card | None,
                      view: BettingView) -> None:
        if view.cards_up or view.hand_over:
            # Showdown (or all-in hands turned up, POT-ALL-IN-SHOW): cards speak.
            if card is None or seat not in self.hole:
                return
            self._note_card(step, at, view, card, f"seat:{seat}")
            got = self.shown.setdefault(seat, [])
            if card not in got:
                got.append(card)
                if len(got) == 2:
                    step.entries.append(HandShown(seat, tuple(got)))
            return
        if (seat, card) in self.player_exposed or (card is None and self.player_exposed and obs.confidence < MIN_CONFIDENCE):
            return
        if seat not in self.hole or (view.live and seat not in view.live):
            return
        self.player_exposed.add((seat, card))
        if obs.confidence < MIN_CONFIDENCE:
            self._uncertain(step, at, "DEAL-PLAYER-EXPOSED", f"seat {seat} may have exposed a card", seat=seat)
            return
        self._note_card(step, at, view, card, f"seat:{seat}")
        self._raise(step, at, "DEAL-PLAYER-EXPOSED", Verdict.INFORMATION,
                    R.player_exposed(self.profile, seat, card), seat, card)

    def _left(self, step: Step, at: int, obs: CardLeft, view: BettingView) -> None:
        if obs.zone.kind != "shoe":
            return  # cards moved off the felt: folds, mucks, a card taken out of play
        locked = view.voluntary_actors >= 2
        if locked:
            self._raise(step, at, "DEAL-MISSING-CARD", Verdict.INFORMATION, R.missing_card(True), card=obs.card)
        else:
            self._misdeal(step, at, view, "DEAL-MISSING-CARD", R.missing_card(False), "a missing card",
                          card=obs.card, lockable=False)
