"""The pips' vote on a number card's suit (``dealer_pi.vision.pips``), on the suit head's outputs."""

from __future__ import annotations

import numpy as np

from dealer_pi.vision.pips import COURT_PRINTS, COURT_VOUCHERS, outvoted, vouch

C, D, H, S = range(4)


def _pips(*suits: int, sure: float = 0.99, not_a_suit: float = 0.01) -> np.ndarray:
    """The suit head's five probabilities (c, d, h, s, not a suit) for pips each read as ``suits``."""
    rows = np.full((len(suits), 5), (1.0 - sure) / 3 * (1.0 - not_a_suit))
    for row, suit in zip(rows, suits):
        row[suit] = sure * (1.0 - not_a_suit)
        row[4] = not_a_suit
    return rows


def test_DEAL_DECK_two_sure_pips_of_the_index_suit_vouch_for_it():
    assert vouch(_pips(C, C), C, printed=7)
    assert vouch(_pips(S, S, S), S, printed=6)


def test_DEAL_DECK_one_pip_or_unsure_pips_do_not_vouch():
    assert not vouch(_pips(C), C, printed=7)
    assert not vouch(_pips(C, C, sure=0.9), C, printed=7)  # under pips.SURE: not counted
    assert not vouch(_pips(C, C, not_a_suit=0.6), C, printed=7)  # more likely no suit at all


def test_DEAL_DECK_a_pip_of_another_suit_stops_the_vouching():
    # A pip of the rival suit on the card: the index's suit is not settled by its pips.
    assert not vouch(_pips(C, C, C, S), C, printed=7)
    assert not vouch(_pips(H, H, D), H, printed=9)


def test_DEAL_DECK_more_pips_than_the_rank_prints_vouch_for_no_read():
    # A "3" read on an 8 of hearts: eight heart pips round it settle the hearts, not the 3.
    assert not vouch(_pips(*[H] * 8), H, printed=3)
    assert vouch(_pips(*[H] * 8), H, printed=8)


def test_DEAL_DECK_pips_outvote_an_index_only_two_to_one_or_more():
    assert outvoted(_pips(S, S), C, [S])
    assert not outvoted(_pips(S), C, [S])  # one pip is not enough to take a name away
    assert not outvoted(_pips(S, S, C, C), C, [S])  # a tie keeps the index's suit
    assert not outvoted(_pips(D, D), C, [S])  # only the rivals given count against it


def test_DEAL_DECK_a_court_picture_sign_vouches_alone_and_only_up_to_the_two_a_court_prints():
    # A fanned court shows one half of its picture: one sure sign of the index's suit settles it.
    assert vouch(_pips(C), C, printed=COURT_PRINTS, least=COURT_VOUCHERS)
    assert vouch(_pips(H, H), H, printed=COURT_PRINTS, least=COURT_VOUCHERS)
    # More signs than a court prints are a number card's pips, or a picture's pattern: no vouching.
    assert not vouch(_pips(C, C, C), C, printed=COURT_PRINTS, least=COURT_VOUCHERS)
    assert not vouch(_pips(S, C), C, printed=COURT_PRINTS, least=COURT_VOUCHERS)  # one against: none
    assert not vouch(_pips(C, sure=0.9), C, printed=COURT_PRINTS, least=COURT_VOUCHERS)  # under SURE


def test_DEAL_DECK_pips_that_may_be_no_suit_at_all_do_not_outvote_an_index():
    # The drawn deck's 10 of clubs filmed at 1080p: pips 0.56 spade with 0.42 "not a suit" are
    # 0.98 spade among the four suits alone, and four of them took the club's name away.
    weak_spades = _pips(S, S, S, S, sure=0.98, not_a_suit=0.42)
    assert not outvoted(weak_spades, C, [D, H, S])
    assert outvoted(_pips(S, S, S, S, sure=0.98, not_a_suit=0.2), C, [D, H, S])  # sure spades still do
    # For the index they still count: a real 8 of clubs's pips read so and vouch for its clubs.
    assert vouch(_pips(C, C, C, sure=0.98, not_a_suit=0.4), C, printed=8)
