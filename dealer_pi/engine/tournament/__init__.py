"""Tournament rules for a room of tables (seed 000 §45-62, 002 §2-3): pure, typed, deterministic.

The floor process decides with these functions and the tables apply what it
decides between hands; nothing here reads a clock or does I/O (time and
random seeds are passed in).

* :mod:`.payout` - TABLE-PAYOUT: structures checked, the prize pool, the split.
* :mod:`.rebuys` - TABLE-REBUY: who may rebuy, add on or buy back, and when.
* :mod:`.seating` - registration and the random seat draw (000 §51).
* :mod:`.balance` - TABLE-MOVE: who moves where when tables are unbalanced or one breaks.
* :mod:`.chip_race` - TABLE-CHIP-RACE: colouring up odd chips (000 §49-50).
* :mod:`.penalties` - TABLE-PENALTY: warnings, minutes away, disqualification (000 §45-46).
* :mod:`.hand_for_hand` - TABLE-HAND-FOR-HAND: rounds where every table waits (000 §56-57).
* :mod:`.orders` - the floor's instructions to one table, checked field by field.
* :mod:`.reseat` - applying those instructions to a table between two hands.
"""
