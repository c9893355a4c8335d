"""POT-BEST-FIVE: best five of seven, suits never rank, kickers break ties."""

from collections import Counter
from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dealer_pi.engine.cards import FULL_DECK, parse_cards
from dealer_pi.engine.errors import InputError
from dealer_pi.engine.evaluator import HandCategory, evaluate7, hand_category, hand_description


def value(text: str) -> int:
    return evaluate7(parse_cards(text))


def naive_key(cards) -> tuple:
    """An independent, slow reading of a five-card hand, straight from the rule text."""
    ranks = sorted((c.rank for c in cards), reverse=True)
    groups = sorted(Counter(ranks).items(), key=lambda rc: (rc[1], rc[0]), reverse=True)
    shape = [n for _, n in groups]
    ordered = [r for r, _ in groups]
    flush = len({c.suit for c in cards}) == 1
    distinct = sorted(set(ranks), reverse=True)
    straight_high = 0
    if len(distinct) == 5 and distinct[0] - distinct[4] == 4:
        straight_high = distinct[0]
    elif distinct == [14, 5, 4, 3, 2]:
        straight_high = 5
    if straight_high and flush:
        return (8, straight_high)
    if shape == [4, 1]:
        return (7, *ordered)
    if shape == [3, 2]:
        return (6, *ordered)
    if flush:
        return (5, *ranks)
    if straight_high:
        return (4, straight_high)
    if shape == [3, 1, 1]:
        return (3, *ordered)
    if shape == [2, 2, 1]:
        return (2, *ordered)
    if shape == [2, 1, 1, 1]:
        return (1, *ordered)
    return (0, *ranks)


def test_POT_BEST_FIVE_all_five_card_hands_give_7462_values_and_standard_counts():
    hands_per_value: Counter[int] = Counter()
    example: dict[int, tuple] = {}
    for hand in combinations(FULL_DECK, 5):
        v = evaluate7(hand)
        if v not in hands_per_value:
            example[v] = hand
        hands_per_value[v] += 1
    assert len(hands_per_value) == 7462
    hands = Counter()
    values = Counter()
    for v, n in hands_per_value.items():
        hands[hand_category(v)] += n
        values[hand_category(v)] += 1
    assert hands == {
        HandCategory.STRAIGHT_FLUSH: 40,
        HandCategory.FOUR_OF_A_KIND: 624,
        HandCategory.FULL_HOUSE: 3744,
        HandCategory.FLUSH: 5108,
        HandCategory.STRAIGHT: 10200,
        HandCategory.THREE_OF_A_KIND: 54912,
        HandCategory.TWO_PAIR: 123552,
        HandCategory.PAIR: 1098240,
        HandCategory.HIGH_CARD: 1302540,
    }
    assert values == {
        HandCategory.STRAIGHT_FLUSH: 10,
        HandCategory.FOUR_OF_A_KIND: 156,
        HandCategory.FULL_HOUSE: 156,
        HandCategory.FLUSH: 1277,
        HandCategory.STRAIGHT: 10,
        HandCategory.THREE_OF_A_KIND: 858,
        HandCategory.TWO_PAIR: 858,
        HandCategory.PAIR: 2860,
        HandCategory.HIGH_CARD: 1277,
    }
    # The order of the 7,462 classes agrees with an independent reading of the rules.
    keys = [naive_key(example[v]) for v in sorted(example)]
    assert keys == sorted(keys)
    assert len(set(keys)) == 7462


@pytest.mark.parametrize(
    "better, worse",
    [
        ("AsKsQsJsTs", "KhQhJhTh9h"),  # royal over king-high straight flush
        ("6h5h4h3h2h", "5d4d3d2dAd"),  # six-high straight flush over the steel wheel
        ("5d4d3d2dAd", "AhAdAcAsKd"),  # steel wheel beats quads
        ("2h2d2c2sAd", "AhAdAcKsKd"),  # any quads over any full house
        ("3h3d3cAsAd", "2h2d2cAsAd"),  # full house ranked by the trips first
        ("Ah9h7h4h2h", "AdKcQhJsTs"),  # flush over straight
        ("6d5c4h3s2d", "5h4d3c2sAd"),  # the wheel is the lowest straight
        ("AhAdKcKs2d", "AhAdQcQsJd"),  # two pair: top pair decides ...
        ("AhAdKcKs3d", "AcAsKdKh2c"),  # ... then the kicker
        ("9h9d8c5s4d", "9c9s8d5h3c"),  # pair: the third kicker
    ],
)
def test_POT_BEST_FIVE_kickers_and_categories_order(better, worse):
    assert value(better) > value(worse)


def test_POT_BEST_FIVE_suits_never_rank():
    assert value("AhKhQh9h2h") == value("AsKsQs9s2s")
    assert value("AhKd9c7s3h") == value("AcKs9d7h3c")


@pytest.mark.parametrize(
    "seven, best_five",
    [
        ("Ah2d3c4s5h9dKc", "5h4s3c2dAh"),  # wheel with an ace and a king around
        ("Ah2h3h4h5h6d6c", "Ah2h3h4h5h"),  # steel wheel over the sixes
        ("2c3d4h5s6c7d8h", "8h7d6c5s4h"),  # seven in a row: the top five
        ("AcAdKsKh5c5d9h", "AcAdKsKh9h"),  # counterfeited third pair: the nine plays
        ("7h7d6c6s5h5d2c", "7h7d6c6s5h"),  # three pairs: the best two plus the best kicker
        ("9h8h7h6d5c2h3h", "9h8h7h3h2h"),  # flush over the straight in the same seven
        ("AhAdAc2s2d3h3c", "AhAdAc3h3c"),  # trips plus two pairs: best full house
        ("AhAdAcKsKdKh2c", "AhAdAcKsKd"),  # two sets: the smaller set is the pair
        ("9h9d9c9s8h8d8c", "9h9d9c9s8h"),  # quads with a set beside them
    ],
)
def test_POT_BEST_FIVE_targeted_seven_card_hands(seven, best_five):
    assert value(seven) == value(best_five)


def test_POT_BEST_FIVE_board_plays_and_identical_hands_split():
    board = "AsKsQsJsTs"
    assert value(board + "2h3d") == value(board + "4c5c") == value(board)
    # Same best five from different hole cards: a split.
    assert value("AhKd" + "QcJdTh4s2c") == value("AsKc" + "QcJdTh4s2c")


@settings(max_examples=300, deadline=None)
@given(st.permutations(FULL_DECK).map(lambda d: d[:7]))
def test_POT_BEST_FIVE_seven_cards_is_the_max_over_the_21_fives(cards):
    assert evaluate7(cards) == max(evaluate7(c) for c in combinations(cards, 5))
    assert evaluate7(cards[:6]) == max(evaluate7(c) for c in combinations(cards[:6], 5))


@settings(max_examples=300, deadline=None)
@given(st.permutations(FULL_DECK).map(lambda d: (d[:5], d[5:10])))
def test_POT_BEST_FIVE_comparison_matches_an_independent_reading(pair):
    a, b = pair
    va, vb = evaluate7(a), evaluate7(b)
    ka, kb = naive_key(a), naive_key(b)
    assert (va > vb) == (ka > kb) and (va == vb) == (ka == kb)


@pytest.mark.parametrize(
    "cards, words",
    [
        ("AsKsQsJsTs", "Royal flush"),
        ("5d4d3d2dAd", "Straight flush, Five high"),
        ("6h6d6c6s2d", "Four of a kind, Sixes"),
        ("KhKdKc5s5d", "Full house, Kings full of Fives"),
        ("Ah9h7h4h2h", "Flush, Ace high"),
        ("Td9c8h7s6d", "Straight, Ten high"),
        ("7h7d7c5s2d", "Three of a kind, Sevens"),
        ("KhKd5s5c9h", "Two pair, Kings and Fives"),
        ("JhJd9c5s2d", "Pair of Jacks"),
        ("AhQd9c5s2d", "High card, Ace"),
    ],
)
def test_hand_description_in_dealer_words(cards, words):
    assert hand_description(value(cards)) == words


@pytest.mark.parametrize("text", ["AhKdQc2s", "AhKdQc2s3s4s5s6s"])
def test_wrong_number_of_cards_is_refused(text):
    with pytest.raises(InputError, match="5, 6 or 7 cards"):
        value(text)


def test_a_card_given_twice_is_refused():
    with pytest.raises(InputError, match="twice"):
        value("AhAhKdQc2s")
