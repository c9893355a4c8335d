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
from typing import Any, Final

from ..cards import Card, misread_as
from ..events import BoardDealt, CardBurned, Entry, HandShown, HoleCardsDealt
from ..observations import (
    ActionKind,
    CardLeft,
    CardSeen,
    ChipsPushed,
    DealerDeclaration,
    Declaration,
    Observation,
    PlayerAction,
    ShoeDraw,
    VerbalDeclaration,
)
from ..profiles import RuleProfile
from . import remedies as R
from .alerts import AlertRaised, MonitorEvent, ProcedureCompleted, Verdict
from .state import DealState, DealView, OpenAlert, Procedure, ProcKind

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
class Step:
    """What one observation produced."""

    events: list[MonitorEvent] = field(default_factory=list)
    entries: list[Entry] = field(default_factory=list)
    retract_board: int = 0  # board streets the betting engine must forget (a flop or card put back)


class DealMonitor:
    """Tracks one hand's dealing at a time; alert IDs run across the session.

    The hand's state is one :class:`DealState` that only this class changes; others read
    :meth:`view`, :meth:`secrets` and the open alerts.
    """

    def __init__(self, profile: RuleProfile, first_alert: int = 1) -> None:
        self.profile = profile
        self._next_alert = first_alert
        self._d = DealState()

    # ------------------------------------------------------------ hand lifecycle

    def start_hand(self, order: tuple[int, ...], hand_no: int) -> None:
        """A new deal: ``order`` are the seats dealt in, first left of the button."""
        self._d = DealState(order=order, hand_no=hand_no)

    # ------------------------------------------------------------ reading

    def view(self) -> DealView:
        """Hole-card counts, burns, corrections under way, whether hole cards are still coming."""
        return self._d.view()

    def secrets(self) -> dict[str, Any]:
        """Hole cards and burns by seat: for the producer's delayed view only."""
        return self._d.secrets()

    def open_alerts(self) -> list[AlertRaised]:
        """Alerts of this hand not yet confirmed or dismissed, oldest first."""
        return [oa.alert for oa in self._d.open.values()]

    def open_alert(self, alert_id: str) -> OpenAlert | None:
        return self._d.open.get(alert_id)

    @property
    def misdeal_alert(self) -> str | None:
        """The open alert whose verdict is a misdeal, if any."""
        return self._d.misdeal_alert

    @property
    def next_alert(self) -> int:
        """The number the next alert gets (``a<N>``)."""
        return self._next_alert

    def reserve_alerts(self, upto: int) -> None:
        """Never hand out a number below ``upto`` again (alerts raised before an undo keep theirs)."""
        self._next_alert = max(self._next_alert, upto)

    def dealing_hole_cards(self) -> bool:
        """Hole cards are still coming: nobody may be asked to act yet."""
        return bool(self._d.order) and not self._d.deal_done

    # ------------------------------------------------------------ alerts

    def _raise(self, step: Step, at: int, rule: str, verdict: Verdict, remedy: str,
               seat: int | None = None, card: Card | None = None, would_be: Verdict | None = None) -> str:
        if self._d.misdeal_alert is not None:
            return ""  # one misdeal is enough: until the dealer answers it, more alerts are noise
        alert_id = f"a{self._next_alert}"
        self._next_alert += 1
        a = AlertRaised(alert_id, rule, verdict, remedy, at, seat, card)
        step.events.append(a)
        self._d.open[alert_id] = OpenAlert(a, would_be or verdict)
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
            self._d.misdeal_alert = aid
            self._d.open[aid].lockable = lockable

    def _uncertain(self, step: Step, at: int, rule: str, what: str, seat: int | None = None,
                   card: Card | None = None, would_be: Verdict = Verdict.INFORMATION) -> None:
        self._raise(step, at, rule, Verdict.UNCERTAIN, R.uncertain(what), seat, card, would_be)

    def notice(self, at: int, rule: str, what: str) -> list[AlertRaised]:
        """An uncertain notice from outside the monitor (the betting engine refused a card)."""
        step = Step()
        self._uncertain(step, at, rule, what)
        return [e for e in step.events if isinstance(e, AlertRaised)]

    def inform(self, at: int, rule: str, remedy: str, seat: int | None = None) -> list[AlertRaised]:
        """An information alert from outside the monitor (a wrong announcement, POT-CARDS-SPEAK)."""
        step = Step()
        self._raise(step, at, rule, Verdict.INFORMATION, remedy, seat)
        return [e for e in step.events if isinstance(e, AlertRaised)]

    def board_refused(self, cards: tuple[Card, ...]) -> None:
        """The betting engine refused a street the monitor took as dealt (a card the board holds
        already, after a foul deck was dismissed): that street is still to come, so the monitor
        must not look for the next one."""
        n = len(cards)
        if n and self._d.board[-n:] == list(cards):
            del self._d.board[-n:]
            self._d.streets_done -= 1
            self._d.burns_this_street = self._d.street_burns

    def close_alert(self, alert_id: str, confirmed: bool = False) -> OpenAlert:
        """Forget an answered alert; KeyError if not open.

        A dismissed alert's procedure is forgotten too: the dealer says it did not happen. A
        confirmed one's is followed on, now as sure: the dealer who taps "confirm" and then
        replaces an exposed card is doing what the alert asked, not dealing a third card.
        """
        oa = self._d.open.pop(alert_id)
        if confirmed:
            for p in self._d.procs:
                if p.alert_id == alert_id and p.tentative:
                    p.tentative = False
                    self._exposure_counted()
        else:
            self._d.procs = [p for p in self._d.procs if p.alert_id != alert_id]
        if self._d.misdeal_alert == alert_id:
            self._d.misdeal_alert = None
        return oa

    # ------------------------------------------------------------ deck accounting (DEAL-DECK)

    def _release(self, cards: list[Card | None]) -> None:
        """Cards put back into the deck by a correction: they may come out again."""
        for c in cards:
            self._d.out_of_deck -= 1
            if c is not None:
                self._d.seen.pop(c, None)

    def _note_card(self, step: Step, at: int, view: BettingView, card: Card | None, where: str) -> None:
        if card is None:
            return
        before = self._d.seen.get(card)
        if before is not None and before != where:
            # Only the camera saw it twice, and cameras misread: the dealer checks (a confirmed
            # foul deck is a misdeal whatever the betting). The shoe's reads are trusted in _draw.
            aid = self._raise(step, at, "DEAL-DECK", Verdict.UNCERTAIN,
                              R.uncertain(f"{card} seen at {where} but it is already at {before}, so the deck may be foul"),
                              card=card, would_be=Verdict.MISDEAL)
            if aid:
                self._d.open[aid].lockable = False
        self._d.seen[card] = where

    # ------------------------------------------------------------ the entry point

    def observe(self, at: int, obs: Observation, view: BettingView) -> Step:
        step = Step()
        if self._d.pending is not None and not isinstance(obs, (CardSeen, CardLeft)):
            # A card leaving some place (a fold reaching the muck, seen a moment late) says nothing
            # about where the drawn card lands: only what comes next from the shoe or the dealer does.
            self._lost_landing(step, at, view)
        if isinstance(obs, ShoeDraw):
            self._draw(step, at, obs.card, view)
        elif isinstance(obs, CardSeen):
            # A folded hand seen reaching the muck only after the next draws is not where they went.
            folded = obs.zone.kind == "muck" and self._d.fold_to_muck > 0
            if folded:
                self._d.fold_to_muck -= 1
            if self._late_sighting(obs):
                pass
            elif self._d.pending is not None and not folded:
                self._landing(step, at, obs, view)
            else:
                self._sighting(step, at, obs, view)
        elif isinstance(obs, CardLeft):
            self._left(step, at, obs, view)
        elif isinstance(obs, (PlayerAction, ChipsPushed, VerbalDeclaration)):
            if not self._d.deal_done and self._d.order:
                self._deal_end(step, at, view)
            self._d.actions_since_board += 1
            self._d.swallow = 0
            if isinstance(obs, PlayerAction) and obs.action is ActionKind.FOLD:
                self._d.fold_to_muck += len(self._d.hole.get(obs.seat, ())) or 2
        elif isinstance(obs, DealerDeclaration):
            if obs.declare is Declaration.CARDS_OUT and not self._d.deal_done and self._d.order:
                self._deal_end(step, at, view)
            elif obs.declare is Declaration.SHUFFLE_DONE:
                self._d.swallow = 0  # the cards sent back are in the deck: what comes now is dealt anew
        return step

    # ------------------------------------------------------------ shoe

    def _draw(self, step: Step, at: int, card: Card | None, view: BettingView) -> None:
        if card is not None and card == self._d.put_back:
            self._release([card])  # the extra burn went back on top, as its remedy said
        self._d.put_back = None
        self._d.out_of_deck += 1
        self._d.last_zone = None
        if self._d.out_of_deck > 52:
            self._misdeal(step, at, view, "DEAL-DECK", R.foul_deck("a 53rd card came out of the shoe"),
                          "a 53rd card", card=card, lockable=False)
        if card is not None:
            if card in self._d.seen:
                self._misdeal(step, at, view, "DEAL-DECK",
                              R.foul_deck(f"{card} came out of the shoe twice in one hand"),
                              f"{card} twice", card=card, lockable=False)
                # One of the two reads is wrong and nothing says which: where the dealer plays on,
                # this card lands unnamed, so no seat is left holding one card twice (it could never show).
                card = None
            else:
                self._d.seen[card] = "shoe"
        self._d.pending = (at, card)

    def _lost_landing(self, step: Step, at: int, view: BettingView) -> None:
        """A drawn card nobody saw land: assume it went where it should, and say so."""
        draw_at, card = self._d.pending or (at, None)
        self._d.pending = None
        if not self._d.deal_done and self._d.order:
            seat = self._d.order[self._d.deal_pos % len(self._d.order)]
            self._uncertain(step, draw_at, "DEAL-ORDER",
                            f"a card left the shoe but was not seen landing; taken as dealt to seat {seat}",
                            seat=seat, would_be=Verdict.INFORMATION)
            if card is not None:
                self._d.seen[card] = f"seat:{seat}"
            self._d.unseen_hole[seat] = self._d.unseen_hole.get(seat, 0) + 1
            self._hole_card(step, draw_at, seat, card, view)
        else:
            self._uncertain(step, draw_at, "DEAL-BURN",
                            "a card left the shoe but was not seen landing; taken as a burn card")
            if card is not None:
                self._d.seen[card] = "burn"
            self._burn(step, draw_at, card, view, assumed=True)

    # ------------------------------------------------------------ cards landing after a draw

    def _late_sighting(self, obs: CardSeen) -> bool:
        """A card taken as dealt to a seat unseen (DEAL-ORDER uncertain), seen there only now (a
        player's hand lifted): between draws, while the next card is landing or after the deal, the
        same card, not one more (never DEAL-ORDER's or DEAL-HOLE-COUNT's misdeal on it)."""
        seat = obs.zone.seat
        if obs.zone.kind != "seat" or obs.face_up or seat is None or not self._d.unseen_hole.get(seat, 0):
            return False
        if not self._d.deal_done and self._d.order:
            if self._d.pending is None and self._d.last_zone == str(obs.zone):
                return False  # the card just dealt there, reported again: :meth:`_sighting` lets it be
            if self._d.pending is not None and seat == self._d.order[self._d.deal_pos % len(self._d.order)]:
                return False  # the landing of the card now due there
        self._d.unseen_hole[seat] -= 1
        return True

    def _landing(self, step: Step, at: int, obs: CardSeen, view: BettingView) -> None:
        shoe_card = self._d.pending[1] if self._d.pending else None
        self._d.pending = None
        self._d.last_zone = str(obs.zone)
        cam = obs.card if obs.confidence >= MIN_CONFIDENCE else None
        card = shoe_card or cam
        if shoe_card is not None and cam is not None and cam != shoe_card:
            self._uncertain(step, at, "DEAL-DECK", f"the shoe read {shoe_card} but the camera saw {cam}",
                            card=shoe_card)
        elif shoe_card is None and cam is not None:
            self._note_card(step, at, view, cam, "shoe")
        kind = obs.zone.kind
        if card is not None and self._d.seen.get(card) == "shoe":
            self._d.seen[card] = str(obs.zone)
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
            self._d.seen[card] = "bottom"  # out of play this hand: seeing it again means a foul deck
        self._d.out_of_deck += 1

    def _hole_landing(self, step: Step, at: int, seat: int, obs: CardSeen, card: Card | None,
                      view: BettingView) -> None:
        if view.complete and not obs.face_up:
            if not self._d.early_deal_noticed:
                self._d.early_deal_noticed = True
                self._uncertain(step, at, "DEAL-ORDER",
                                "a card was dealt to a seat but the last hand is over: declare \"new hand\" first",
                                seat=seat)
            return
        if self._d.deal_done:
            self._after_deal_hole(step, at, seat, card, view)
            return
        if seat not in self._d.hole:
            self._misdeal(step, at, view, "DEAL-EMPTY-SEAT", R.empty_seat(seat), f"a card to seat {seat}",
                          seat=seat, card=card)
            return
        expected = self._d.order[self._d.deal_pos % len(self._d.order)]
        if seat != expected:
            self._misdeal(step, at, view, "DEAL-ORDER", R.out_of_order(seat, expected),
                          "a card dealt out of order", seat=seat, card=card)
            self._d.hole[seat].append(card)
            return
        first = self._d.deal_pos == 0
        if obs.face_up:
            if obs.confidence < MIN_CONFIDENCE:
                self._unsure_exposure(step, at, seat, card, first)
            elif first and self.profile.first_card_exposed_misdeal:
                self._misdeal(step, at, view, "DEAL-FIRST-EXPOSED", R.first_exposed(seat),
                              "the first card exposed", seat=seat, card=card)
            else:
                replace = self._replaces_exposure(first)
                unsure = self._unsure_seats()
                self._exposure_counted()
                once = self._d.dealer_exposed == 1
                if replace:
                    aid = self._raise(step, at, "DEAL-HOLE-EXPOSED", Verdict.IRREGULARITY,
                                      R.hole_exposed(self.profile, seat, card, True, unsure), seat, card)
                    if aid:
                        self._d.procs.append(Procedure(ProcKind.REPLACE_EXPOSED, aid, "DEAL-HOLE-EXPOSED", seat, card))
                else:
                    self._d.procs = [p for p in self._d.procs if p.kind is not ProcKind.REPLACE_EXPOSED]
                    self._misdeal(step, at, view, "DEAL-HOLE-EXPOSED",
                                  R.hole_exposed(self.profile, seat, card, once),
                                  "an exposed hole card", seat=seat, card=card)
        self._hole_card(step, at, seat, card, view)

    def _replaces_exposure(self, first: bool) -> bool:
        """Whether a hole card the dealer exposes now is replaced (001: the first one of the deal,
        unless it is the very first card and that is a misdeal) rather than a misdeal."""
        return (self.profile.exposed_hole_card == "replace-one" and self._d.dealer_exposed == 0
                and not (first and self.profile.first_card_exposed_misdeal))

    def _unsure_exposure(self, step: Step, at: int, seat: int, card: Card | None, first: bool) -> None:
        """A hole card that may have been face up: the camera was not sure.

        Confirming the notice counts as the sure exposure would: a misdeal where that is one.
        Where 001 has the card replaced, the replacement is expected as for a sure exposure, so
        the dealer who follows the procedure is not told of a third hole card; when no
        replacement comes, the expectation lapses without an alert.
        """
        replace = self._replaces_exposure(first)
        rule = "DEAL-FIRST-EXPOSED" if first and not replace else "DEAL-HOLE-EXPOSED"
        would_be = Verdict.IRREGULARITY if replace else Verdict.MISDEAL
        text = R.unsure_exposed(seat, replace, self._unsure_seats() if replace else ())
        aid = self._raise(step, at, rule, Verdict.UNCERTAIN, text, seat, None, would_be)
        if aid and replace:
            self._d.procs.append(Procedure(ProcKind.REPLACE_EXPOSED, aid, rule, seat, card, tentative=True))

    def _open_unsure(self) -> list[Procedure]:
        """Replacements expected for cards the camera was not sure were face up, their notices still open."""
        return [p for p in self._d.procs_of(ProcKind.REPLACE_EXPOSED) if p.tentative and p.alert_id in self._d.open]

    def _unsure_seats(self) -> list[int]:
        return [p.seat for p in self._open_unsure()]

    def _exposure_counted(self) -> None:
        """One more hole card is known to have been exposed in this deal. At a table that replaces
        only one (001), an unsure exposure still open would now be the second: confirming it
        declares the misdeal rather than starting a second replacement."""
        self._d.dealer_exposed += 1
        if self.profile.exposed_hole_card != "replace-one":
            return
        for p in self._open_unsure():
            self._d.open[p.alert_id].would_be = Verdict.MISDEAL

    def _lapse(self, step: Step, p: Procedure) -> bool:
        """Drop an unsure exposure's expectation that no replacement met (see ``_unsure_exposure``)."""
        if not (p.tentative and not p.replaced):
            return False
        self._d.procs.remove(p)
        if self._d.deal_done and p.seat in self._d.hole:
            step.entries.append(HoleCardsDealt(p.seat, tuple(self._d.hole[p.seat])))
        return True

    def _hole_card(self, step: Step, at: int, seat: int, card: Card | None, view: BettingView) -> None:
        if self._d.deal_done or seat not in self._d.hole:
            return
        self._d.hole[seat].append(card)
        self._d.deal_pos += 1
        if self._d.deal_pos == 2 * len(self._d.order):
            self._d.deal_done = True
            waiting = {p.seat for p in self._d.procs_of(ProcKind.REPLACE_EXPOSED)}
            step.entries.extend(HoleCardsDealt(s, tuple(self._d.hole[s])) for s in self._d.order if s not in waiting)

    def _after_deal_hole(self, step: Step, at: int, seat: int, card: Card | None, view: BettingView) -> None:
        for p in self._d.procs:
            if p.kind is ProcKind.REPLACE_EXPOSED and p.seat == seat and not p.replaced:
                p.replaced = True
                self._d.hole[seat].append(card)
                self._replace_progress(step, at, p)
                return
        self._d.extra_cards += 1
        if seat not in self._d.hole:
            self._misdeal(step, at, view, "DEAL-EMPTY-SEAT", R.empty_seat(seat), f"a card to seat {seat}",
                          seat=seat, card=card)
            return
        self._d.hole[seat].append(card)
        to_burn_rule = self.profile.hole_count == "burn-first-extra"
        if to_burn_rule and self._d.extra_cards == 1 and seat == self._d.order[0] and self._d.streets_done == 0 \
                and self._d.burns_this_street == 0:
            aid = self._raise(step, at, "DEAL-HOLE-COUNT", Verdict.IRREGULARITY,
                              R.extra_hole(self.profile, seat, card, True, False), seat, card)
            if aid:
                self._d.procs.append(Procedure(ProcKind.EXTRA_TO_BURN, aid, "DEAL-HOLE-COUNT", seat, card))
            self._d.hole[seat].pop()
            self._release([card])  # back on top of the deck: drawing it again is no foul
            return
        many = to_burn_rule and self._d.extra_cards >= 2
        self._misdeal(step, at, view, "DEAL-HOLE-COUNT", R.extra_hole(self.profile, seat, card, False, many),
                      f"an extra hole card to seat {seat}", seat=seat, card=card, lockable=not many)

    def _replace_progress(self, step: Step, at: int, p: Procedure) -> None:
        if p.replaced and p.burned:
            self._d.procs.remove(p)
            cards = [c for c in self._d.hole[p.seat] if c is None or c != p.card]
            if p.card is None and len(cards) > 2:
                cards = cards[1:]
            self._d.hole[p.seat] = cards
            step.entries.append(HoleCardsDealt(p.seat, tuple(cards)))
            step.events.append(ProcedureCompleted(p.alert_id, p.rule, at))

    def _deal_end(self, step: Step, at: int, view: BettingView) -> None:
        """Something that comes after the deal happened: every seat must have two cards.

        When no card of the deal was reported at all there is no sensor to count them: the
        dealer's word ("cards are out", or the first action) stands and every seat holds two
        unread cards.
        """
        self._d.deal_done = True
        if self._d.nothing_reported:
            for s in self._d.order:
                self._d.hole[s] = [None, None]
            step.entries.extend(HoleCardsDealt(s, (None, None)) for s in self._d.order)
            return
        short = [s for s in self._d.order if len(self._d.hole[s]) < 2]
        if short:
            self._misdeal(step, at, view, "DEAL-HOLE-COUNT", R.short_deal(short),
                          "a player without two hole cards", seat=short[0])
        step.entries.extend(HoleCardsDealt(s, tuple(self._d.hole[s])) for s in self._d.order if s not in short)

    # ------------------------------------------------------------ burns and board

    def _burn(self, step: Step, at: int, card: Card | None, view: BettingView, assumed: bool = False) -> None:
        """A card to the burn (``assumed``: a drawn card nobody saw land, already noticed)."""
        if not self._d.deal_done and self._d.order:
            self._deal_end(step, at, view)
        self._d.swallow = 0
        if not assumed and self._burn_not_wanted(step, at, card, view):
            return
        for p in self._d.procs_of(ProcKind.REPLACE_EXPOSED, ProcKind.EXTRA_TO_BURN):
            if p.kind is ProcKind.REPLACE_EXPOSED and self._lapse(step, p):
                continue
            if p.kind is ProcKind.REPLACE_EXPOSED and not p.burned:
                self._d.procs.remove(p)
                self._raise(step, at, p.rule, Verdict.IRREGULARITY, R.procedure_broken(
                    p.rule, f"a card from the deck was burned instead of the exposed {R._c(p.card)}"), p.seat)
            elif p.kind is ProcKind.EXTRA_TO_BURN:
                self._d.procs.remove(p)
                if card is not None and p.card is not None and card != p.card:
                    self._raise(step, at, p.rule, Verdict.IRREGULARITY, R.procedure_broken(
                        p.rule, f"{card} was burned, not the extra card {p.card}"), p.seat, card)
                else:
                    step.events.append(ProcedureCompleted(p.alert_id, p.rule, at))
        self._d.burns_this_street += 1
        self._d.burns.append(card)
        step.entries.append(CardBurned(card))

    def _burn_not_wanted(self, step: Step, at: int, card: Card | None, view: BettingView) -> bool:
        """A burn the rules do not ask for goes back on top of the deck: a second burn before one
        street (DEAL-BURN), or a burn before the river that 001 deals without one after a turn
        or river turned too early (DEAL-TURN-EARLY, DEAL-RIVER-EARLY)."""
        d = self._d
        k = d.streets_done + 1
        if k > 3 or view.hand_over or view.complete or d.street_cards:
            return False
        early = next((p for p in d.procs_of(ProcKind.TURN_EARLY, ProcKind.RIVER_EARLY)
                      if k == 3 and (p.kind is ProcKind.RIVER_EARLY or p.turn_out)), None)
        if early is None and d.burns_this_street == 0:
            return False
        if d.burn_alert_street != k:  # once per street: the open alert already says what to do
            d.burn_alert_street = k
            if early is not None:
                self._raise(step, at, early.rule, Verdict.IRREGULARITY, R.river_without_burn(card), card=card)
            else:
                exposed = d.exposed_burn if k == 1 else None
                self._raise(step, at, "DEAL-BURN", Verdict.IRREGULARITY, R.second_burn(STREET[k], card, exposed),
                            card=card)
        d.put_back = card  # the remedy puts it back on top: drawn again, it is no foul deck
        return True

    def _board_card(self, step: Step, at: int, card: Card | None, view: BettingView) -> None:
        if not self._d.deal_done and self._d.order:
            self._deal_end(step, at, view)
        if self._d.swallow > 0:  # the rest of a flop or card already ruled to go back
            self._d.swallow -= 1
            self._release([card])
            return
        for p in self._d.procs_of(ProcKind.REPLACE_EXPOSED):
            if self._lapse(step, p):
                continue
            self._d.procs.remove(p)
            self._raise(step, at, p.rule, Verdict.IRREGULARITY, R.procedure_broken(
                p.rule, "the board was dealt before the exposed hole card was replaced and burned"), p.seat)
        if view.hand_over:
            self._raise(step, at, "DEAL-NO-RABBIT", Verdict.IRREGULARITY, R.no_rabbit(card), card=card)
            self._release([card])
            return
        k = self._d.streets_done + 1
        if self._d.street_cards:  # the rest of a flop
            self._accept_board(step, at, card, k)
            return
        untouched = self._d.burns_this_street == 0 and self._d.actions_since_board == 0 and self._d.streets_done > 0
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
        if self._d.burns_this_street == 0 and not self._no_burn_allowed(k):
            redeal = next((p for p in self._d.procs_of(ProcKind.REDEAL_STREET) if p.street == k), None)
            if redeal is not None:
                # The street dealt again without a fresh burn: it stands (the hand must go on);
                # the dealer hears of it where the rule asked for a new burn (002 §14.4-14.5).
                if redeal.new_burn:
                    self._raise(step, at, "DEAL-BURN", Verdict.IRREGULARITY,
                                R.redealt_without_burn(STREET[k], redeal.rule), card=card)
            elif k == 1:
                self._redeal_street(step, at, card, 1, "DEAL-FLOP-EXTRA",
                                    R.flop_extra("No burn before the flop", True), new_burn=True)
                self._d.swallow = 2
                return
            else:
                self._board_extra(step, at, card, k, "No burn card", this_street=True)
                return
        self._accept_board(step, at, card, k)

    def _no_burn_allowed(self, k: int) -> bool:
        return k == 3 and bool(self._d.procs_of(ProcKind.TURN_EARLY, ProcKind.RIVER_EARLY))

    def _accept_board(self, step: Step, at: int, card: Card | None, k: int) -> None:
        if card is None:
            self._uncertain(step, at, "DEAL-BURN", f"a {STREET[k]} card could not be read: enter it", would_be=Verdict.INFORMATION)
            return
        self._note_card(step, at, BettingView(), card, "board")
        self._d.street_cards.append(card)
        if len(self._d.street_cards) < BOARD_NEED[k]:
            return
        self._d.board.extend(self._d.street_cards)
        step.entries.append(BoardDealt(tuple(self._d.street_cards)))
        self._d.street_cards = []
        self._d.streets_done = k
        self._d.street_burns = self._d.burns_this_street
        self._d.burns_this_street = 0
        self._d.actions_since_board = 0
        for p in list(self._d.procs):
            if p.kind is ProcKind.REDEAL_STREET and p.street == k:
                self._d.procs.remove(p)
                step.events.append(ProcedureCompleted(p.alert_id, p.rule, at))
            elif p.kind is ProcKind.TURN_EARLY and k == 2:
                p.turn_out = True
                self._release([p.card])  # reshuffled into the deck before the river
            elif p.kind in (ProcKind.TURN_EARLY, ProcKind.RIVER_EARLY) and k == 3:
                self._d.procs.remove(p)
                step.events.append(ProcedureCompleted(p.alert_id, p.rule, at))

    def _redeal_street(self, step: Step, at: int, card: Card | None, k: int, rule: str, remedy: str,
                       new_burn: bool) -> None:
        aid = self._raise(step, at, rule, Verdict.IRREGULARITY, remedy, card=card)
        if aid:
            self._d.procs.append(Procedure(ProcKind.REDEAL_STREET, aid, rule, street=k, card=card, new_burn=new_burn))
        self._release([card])
        self._d.burns_this_street = 0

    def _board_extra(self, step: Step, at: int, card: Card | None, k: int, reason: str,
                     this_street: bool = False) -> None:
        """Too many cards (or no burn) at street ``k``: its cards go back; burn and deal it again."""
        back: list[Card | None] = [card]
        if not this_street:
            n = BOARD_NEED[k]
            back.extend(self._d.board[-n:])
            del self._d.board[-n:]
            self._d.streets_done = k - 1
            step.retract_board += 1
        if k == 1:
            # 001 re-deals the flop after the same burn; 002 §14.4 burns a new card (a profile option).
            new_burn = this_street or self.profile.flop_extra == "new-burn"
            self._redeal_street(step, at, card, 1, "DEAL-FLOP-EXTRA", R.flop_extra(f"{reason} on the flop", new_burn),
                                new_burn)
        else:
            self._redeal_street(step, at, card, k, "DEAL-BOARD-EXTRA", R.board_extra(STREET[k], reason), True)
        self._release(back[1:])
        # Cards turned after this one are read as the street dealt again; any the dealer takes
        # back off the felt are forgotten (CardLeft), so the hand never waits on a lost card.

    def _premature(self, step: Step, at: int, card: Card | None, k: int) -> None:
        if k == 1:
            new_burn = self._d.burns_this_street == 0 or self.profile.flop_extra == "new-burn"
            self._redeal_street(step, at, card, 1, "DEAL-FLOP-EXTRA",
                                R.flop_extra("The flop was dealt before the betting ended", new_burn), new_burn)
            self._d.swallow = 2  # the other two cards of that flop
            return
        rule = "DEAL-TURN-EARLY" if k == 2 else "DEAL-RIVER-EARLY"
        remedy = R.turn_early(card) if k == 2 else R.river_early(card)
        aid = self._raise(step, at, rule, Verdict.IRREGULARITY, remedy, card=card)
        if aid:
            kind = ProcKind.TURN_EARLY if k == 2 else ProcKind.RIVER_EARLY
            self._d.procs.append(Procedure(kind, aid, rule, card=card, street=k))
        if card is not None:
            self._d.seen[card] = "out"
        if k == 2:
            self._d.burns_this_street = 0  # a new burn comes before the real turn
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
            if not self._d.deal_done and not obs.face_up and self._d.order:
                if self._d.last_zone == str(obs.zone):
                    return  # the card just dealt there, reported again (a second camera, a re-read)
                expected = self._d.order[self._d.deal_pos % len(self._d.order)]
                self._uncertain(step, at, "DEAL-DECK", f"a card reached seat {seat} but the shoe did not count it",
                                seat=seat)
                if seat == expected:  # counted as the deal going on; never a misdeal on one source
                    self._d.out_of_deck += 1
                    self._hole_landing(step, at, seat, obs, card, view)
                return
            if obs.face_up:
                self._seat_face_up(step, at, seat, obs, card, view)
            return
        if kind == "burn":
            for p in self._d.procs:
                if p.kind is ProcKind.REPLACE_EXPOSED and not p.burned and (card is None or card == p.card):
                    p.burned = True
                    self._d.exposed_burn = p.card
                    self._d.burns_this_street += 1
                    self._d.burns.append(p.card)
                    step.entries.append(CardBurned(p.card))
                    self._replace_progress(step, at, p)
                    return
            return
        if kind == "board" and card is not None and card not in self._d.board and card not in self._d.street_cards \
                and self._d.seen.get(card) not in ("out",):
            self._uncertain(step, at, "DEAL-DECK", f"{card} appeared on the board but the shoe did not count it",
                            card=card)
            self._d.out_of_deck += 1
            self._board_card(step, at, card, view)

    def _seat_face_up(self, step: Step, at: int, seat: int, obs: CardSeen, card: Card | None,
                      view: BettingView) -> None:
        if view.cards_up or view.hand_over:
            # Showdown (or all-in hands turned up, POT-ALL-IN-SHOW): cards speak.
            if seat not in self._d.hole:
                return
            if seat not in self._d.shown:
                # A card the player exposed during the betting is face up already: the camera
                # reports only the card turned now.
                self._d.shown[seat] = sorted((c for s, c in self._d.player_exposed if s == seat and c is not None),
                                             key=lambda c: c.index)
            got = self._d.shown[seat]
            if seat in self._d.shown_done:
                return  # shown already: a card reported again
            dealt = self._shoe_hole(seat)
            if card is not None and dealt is not None and card not in dealt:
                # The smart shoe named both cards dealt here: a shown card read as neither is the
                # camera's misread (a club for a spade), so it is a card shown, not a card named.
                # Refusing the hand would hold the table at the showdown.
                card = None
            if card is None:
                self._d.shown_unread[seat] = self._d.shown_unread.get(seat, 0) + 1
            elif card not in got:
                self._note_card(step, at, view, card, f"seat:{seat}")
                got.append(card)
            self._shown_hand(step, seat)
            return
        guessed = card is None and obs.guess is not None and self._dealt_guess(seat, obs.guess)
        if guessed:
            card = obs.guess
        if (seat, card) in self._d.player_exposed or (card is None and self._d.player_exposed and obs.confidence < MIN_CONFIDENCE):
            return
        if seat not in self._d.hole or (view.live and seat not in view.live):
            return
        self._d.player_exposed.add((seat, card))
        if obs.confidence < MIN_CONFIDENCE and not guessed:
            self._uncertain(step, at, "DEAL-PLAYER-EXPOSED", f"seat {seat} may have exposed a card", seat=seat)
            return
        self._note_card(step, at, view, card, f"seat:{seat}")
        self._raise(step, at, "DEAL-PLAYER-EXPOSED", Verdict.INFORMATION,
                    R.player_exposed(self.profile, seat, card), seat, card)

    def _shown_hand(self, step: Step, seat: int) -> None:
        """Both hole cards of ``seat`` are face up: the hand is shown (POT-SHOW-BOTH). A face-up
        card the camera could not name is the hole card the smart shoe dealt there and that is
        not shown yet; with a counting shoe the hand waits for a read."""
        got = self._d.shown[seat]
        if len(got) + self._d.shown_unread.get(seat, 0) < 2:
            return
        if len(got) < 2:
            dealt = self._shoe_hole(seat)
            if dealt is None:
                return
            rest = [c for c in dealt if c not in got]
            if len(got) + len(rest) != 2:
                return
            got.extend(rest)
        step.entries.append(HandShown(seat, tuple(got[:2])))
        self._d.shown_done.add(seat)

    def _dealt_guess(self, seat: int, guess: Card) -> bool:
        """Whether the camera's guess at a face-up card at ``seat`` names it: the smart shoe dealt
        that card there, and the seat's other card is not one a misread of it could be (then a
        wrong guess would name the card still face down)."""
        dealt = self._shoe_hole(seat)
        return dealt is not None and guess in dealt and not any(misread_as(guess, c) for c in dealt)

    def _shoe_hole(self, seat: int) -> list[Card] | None:
        """``seat``'s two hole cards where the smart shoe named both, else None."""
        dealt = self._d.hole[seat]
        if len(dealt) != 2 or None in dealt:
            return None
        return [c for c in dealt if c is not None]

    def _left(self, step: Step, at: int, obs: CardLeft, view: BettingView) -> None:
        if obs.zone.kind == "board":
            # The dealer takes cards back: the motion that sent a street back is over, and a
            # card of a street still coming in is no longer on the board.
            self._d.swallow = 0
            if obs.card is not None and obs.card in self._d.street_cards:
                self._d.street_cards.remove(obs.card)
                self._release([obs.card])
            return
        if obs.zone.kind != "shoe":
            return  # cards moved off the felt: folds, mucks, a card taken out of play
        locked = view.voluntary_actors >= 2
        if locked:
            self._raise(step, at, "DEAL-MISSING-CARD", Verdict.INFORMATION, R.missing_card(True), card=obs.card)
        else:
            self._misdeal(step, at, view, "DEAL-MISSING-CARD", R.missing_card(False), "a missing card",
                          card=obs.card, lockable=False)
