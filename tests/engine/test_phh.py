"""PHH reading, checking and writing (the hand-history half of issue 2)."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dealer_pi.engine.cards import Card, parse_cards
from dealer_pi.engine.errors import InputError
from dealer_pi.engine.phh import (
    BetRaise,
    CheckCall,
    DealBoard,
    DealHole,
    Fold,
    HandHistory,
    NoOp,
    ShowMuck,
    action_text,
    parse_phh,
    to_phh,
)

HOLDEM_FILES = [f"wsop-2023-43-{n}.phh" for n in (1, 2, 3, 4, 62, 63, 64, 65, 66, 67, 68)] + ["dwan-ivey-2009.phh"]
OTHER_FILES = {"antonius-blom-2009.phh": "PO", "arieh-yockey-2019.phh": "F2L3D", "phua-xuan-2019.phh": "NS"}

BASE = """\
variant = "NT"
antes = [0, 0, 0]
blinds_or_straddles = [1, 2, 0]
min_bet = 2
starting_stacks = [100, 200, 300]
"""


def doc(actions: list[str], extra: str = "", base: str = BASE) -> str:
    return base + extra + "actions = [" + ", ".join(f'"{a}"' for a in actions) + "]\n"


DEAL = ["d dh p1 AcKd", "d dh p2 ????", "d dh p3 7h6h"]


@pytest.mark.parametrize("name", HOLDEM_FILES)
def test_real_holdem_hands_read_and_round_trip(phh_dir, name):
    text = (phh_dir / name).read_text()
    h = parse_phh(text)
    assert h.variant == "NT" and h.betting == "no-limit"
    assert len(h.antes) == len(h.blinds_or_straddles) == h.player_count
    again = parse_phh(to_phh(h))
    assert again == h
    assert to_phh(again) == to_phh(h)


def test_wsop_hand_fields_are_read_as_written(phh_dir):
    h = parse_phh((phh_dir / "wsop-2023-43-68.phh").read_text())
    assert h.antes == (0, 225000, 0, 0, 0)  # the big-blind ante
    assert h.blinds_or_straddles == (75000, 150000, 0, 0, 0)
    assert h.min_bet == 150000
    assert h.finishing_stacks == (2200000, 0, 2675000, 3125000, 21700000)
    assert h.name(5) == "Brian Rast"
    assert h.actions[0] == DealHole(1, tuple(parse_cards("8d3s")))
    assert h.actions[7] == BetRaise(5, 300000)
    assert h.actions[9] == BetRaise(2, 3350000)
    assert h.actions[10] == CheckCall(5)
    assert h.actions[11] == ShowMuck(2, tuple(parse_cards("9d9c")))
    assert h.actions[13] == DealBoard(tuple(parse_cards("2c8cTh")))
    assert dict(h.info)["hand"] == 68


def test_unknown_hole_cards_are_none(phh_dir):
    h = parse_phh((phh_dir / "dwan-ivey-2009.phh").read_text())
    assert h.actions[1] == DealHole(2, (None, None))
    assert h.finishing_stacks is None


@pytest.mark.parametrize("name, code", sorted(OTHER_FILES.items()))
def test_other_variants_are_refused_by_name(phh_dir, name, code):
    with pytest.raises(InputError) as err:
        parse_phh((phh_dir / name).read_text())
    assert err.value.where == "variant"
    assert repr(code) in err.value.message and "not Texas Hold'em" in err.value.message


def test_limit_and_pot_limit_holdem():
    fixed = doc(DEAL + ["p3 cbr 4"], base=BASE.replace('"NT"', '"FT"').replace("min_bet = 2", "small_bet = 2\nbig_bet = 4"))
    h = parse_phh(fixed)
    assert (h.variant, h.betting, h.small_bet, h.big_bet, h.min_bet) == ("FT", "limit", 2, 4, None)
    assert parse_phh(to_phh(h)) == h
    pot = parse_phh(doc(DEAL, base=BASE.replace('"NT"', '"PT"')))
    assert pot.betting == "pot-limit" and parse_phh(to_phh(pot)) == pot


def test_comments_no_ops_and_user_fields_survive_a_round_trip():
    text = doc(["d dh p1 AcKd # the hero", "", "# burn card exposed", "d dh p2 ????", "d dh p3 7h6h", "p3 sm -"],
               extra='_table_note = "late reg"\nauthor = "Somebody"\ntime = 20:15:00\n')
    h = parse_phh(text)
    assert h.actions[0].comment == "the hero"
    assert h.actions[1] == NoOp("") and h.actions[2] == NoOp("burn card exposed")
    assert h.actions[5] == ShowMuck(3, tuple(parse_cards("7h6h")), as_dealt=True)
    assert action_text(h.actions[5]) == "p3 sm -"
    assert dict(h.info)["_table_note"] == "late reg"
    assert parse_phh(to_phh(h)) == h


def test_whole_float_amounts_are_accepted_fractions_are_not():
    h = parse_phh(doc(DEAL + ["p3 cbr 6.0"], base=BASE.replace("[100, 200, 300]", "[100.0, 200, 300]")))
    assert h.starting_stacks == (100, 200, 300) and h.actions[3] == BetRaise(3, 6)
    with pytest.raises(InputError, match=r"starting_stacks\[0\]: must be a whole number of chips"):
        parse_phh(doc(DEAL, base=BASE.replace("[100, 200, 300]", "[100.5, 200, 300]")))
    with pytest.raises(InputError, match=r"actions\[3\]: 'p3 cbr 6.5': the amount '6.5'"):
        parse_phh(doc(DEAL + ["p3 cbr 6.5"]))


@pytest.mark.parametrize(
    "actions, where, message",
    [
        (DEAL + ["p9 cc"], "actions[3]", "'p9 cc': there is no player 9"),
        (DEAL + ["p0 f"], "actions[3]", "there is no player 0"),
        (DEAL + ["x3 f"], "actions[3]", "'x3' is not a player"),
        (DEAL + ["p3 raise 6"], "actions[3]", "a player action is"),
        (DEAL + ["p3 cbr"], "actions[3]", "a player action is"),
        (DEAL + ["p3 cbr 0"], "actions[3]", "must be positive"),
        (DEAL + ["p3 sd"], "actions[3]", "not a Hold'em action"),
        (["d dh p1 AcKdQh"], "actions[0]", "two cards, got 3"),
        (["d dh p1 AcK"], "actions[0]", "pairs of characters"),
        (["d dh p1 AcXd"], "actions[0]", "rank must be one of"),
        (["d dh p1 AcKd", "d dh p2 AcQd"], "actions[1]", "Ac is dealt twice (already to p1)"),
        (["d dh p1 AcKd", "d dh p1 QcQd"], "actions[1]", "already dealt hole cards"),
        (DEAL + ["d db Jc3d"], "actions[3]", "the flop is 3 cards, got 2"),
        (DEAL + ["d db Jc3d5c", "d db 4h5h"], "actions[4]", "the turn is 1 card, got 2"),
        (DEAL + ["d db Jc3d5c", "d db 4h", "d db 2h", "d db 2d"], "actions[6]", "already has five cards"),
        (DEAL + ["d db Jc????"], "actions[3]", "board cards must be known"),
        (DEAL + ["d db Jc3d7h"], "actions[3]", "7h is dealt twice"),
        (DEAL + ["p1 sm AcQd"], "actions[3]", "p1 shows Qd but was dealt Kd"),
        (DEAL + ["p2 sm -"], "actions[3]", "not dealt face known"),
        (DEAL + ["d burn"], "actions[3]", "a dealer action is"),
        (DEAL + [7], "actions[3]", "must be a string"),
    ],
)
def test_malformed_actions_name_the_index_and_the_reason(actions, where, message):
    text = BASE + "actions = [" + ", ".join(str(a) if isinstance(a, int) else f'"{a}"' for a in actions) + "]\n"
    with pytest.raises(InputError) as err:
        parse_phh(text)
    assert err.value.where == where
    assert message in err.value.message


@pytest.mark.parametrize(
    "edit, where, message",
    [
        (lambda t: t.replace('variant = "NT"\n', ""), "variant", "is required"),
        (lambda t: t.replace('"NT"', '"XX"'), "variant", "unknown variant 'XX'"),
        (lambda t: t.replace('"NT"', '["NT"]'), "variant", "unknown variant ['NT']"),
        (lambda t: t.replace("min_bet = 2\n", ""), "min_bet", "is required for NT"),
        (lambda t: t + "small_bet = 2\n", "small_bet", "is not a field of NT"),
        (lambda t: t + "bring_in = 1\n", "bring_in", "not a bring-in"),
        (lambda t: t.replace("antes = [0, 0, 0]", "antes = [0, 0]"), "antes", "2 entries for 3 players"),
        (lambda t: t.replace("[1, 2, 0]", "[1, -2, 0]"), "blinds_or_straddles[1]", "at least 0"),
        (lambda t: t.replace("[100, 200, 300]", "[100, 0, 300]"), "starting_stacks[1]", "at least 1"),
        (lambda t: t.replace("[100, 200, 300]", "[100]").replace("[0, 0, 0]", "[0]").replace("[1, 2, 0]", "[1]"),
         "starting_stacks", "2 to 10 players"),
        (lambda t: t.replace("[100, 200, 300]", "[100, 200, inf]"), "starting_stacks[2]", "whole number"),
        (lambda t: t + "finishing_stacks = [1, 2]\n", "finishing_stacks", "2 entries for 3 players"),
        (lambda t: t + 'players = ["a", "b"]\n', "players", "array of 3 names"),
        (lambda t: t + "seats = [1, 1, 2]\n", "seats", "share a seat"),
        (lambda t: t + "seats = [1, 2, 9]\nseat_count = 6\n", "seats[2]", "seat number 1 to 6"),
        (lambda t: t + "ante_trimming_status = 1\n", "ante_trimming_status", "true or false"),
        (lambda t: t + "year = \"2009\"\n", "year", "must be of type int"),
        (lambda t: t + "colour = 3\n", "colour", "unknown PHH field"),
        (lambda t: t + "actions = 3\n", "toml", ""),
        (lambda t: t + "variant = \n", "toml", ""),
    ],
)
def test_malformed_fields_are_named(edit, where, message):
    with pytest.raises(InputError) as err:
        parse_phh(edit(doc(DEAL)))
    assert err.value.where == where
    assert message in err.value.message


card_lists = st.permutations([Card.from_index(i) for i in range(52)])


@settings(max_examples=100, deadline=None)
@given(
    deck=card_lists,
    n=st.integers(2, 10),
    stacks=st.lists(st.integers(1, 10**9), min_size=10, max_size=10),
    moves=st.lists(st.tuples(st.sampled_from("fcbs"), st.integers(1, 10), st.integers(1, 10**6)), max_size=30),
    comment=st.text(alphabet=st.characters(blacklist_categories=("Cs",)), max_size=12),
)
def test_to_phh_round_trips_any_history(deck, n, stacks, moves, comment):
    actions: list = [DealHole(p, (deck[2 * p], None if p % 3 == 0 else deck[2 * p + 1])) for p in range(1, n + 1)]
    for kind, p, amount in moves:
        p = (p - 1) % n + 1
        actions.append({"f": Fold(p), "c": CheckCall(p, comment.strip().replace("#", "")), "b": BetRaise(p, amount),
                        "s": ShowMuck(p, None)}[kind])
    actions.append(DealBoard(tuple(deck[40:43])))
    h = HandHistory(
        variant="NT", antes=(0,) * n, blinds_or_straddles=(1, 2) + (0,) * (n - 2), starting_stacks=tuple(stacks[:n]),
        actions=tuple(actions), min_bet=2, players=tuple(f"{comment} {i}" for i in range(n)),
        info=(("event", comment), ("_note", [comment, 3])),
    )
    assert parse_phh(to_phh(h)) == h


def test_control_characters_in_names_are_escaped_for_toml():
    h = parse_phh(doc(DEAL, extra='players = ["Ann", "B\\u007fob", "Tab\\there"]\n'))
    assert h.players == ("Ann", "B\x7fob", "Tab\there")
    text = to_phh(h)
    assert "\x7f" not in text and "\t" not in text
    assert parse_phh(text) == h
