"""The rules engine: pure, synchronous, deterministic.

Nothing here does I/O, starts threads, reads a clock or imports from the rest
of the package: the same inputs always give the same state and events.

Where things are (import from the modules; nothing is re-exported here):

* :mod:`.profiles` - :class:`RuleProfile` (options name their rule ID in ``RULE_OF``),
  ``PROFILES``, :func:`get_profile`, :func:`profile_from_mapping`.
* :mod:`.setup` - :class:`HandSetup`, :class:`SeatSetup`, :class:`Structure`,
  :func:`blinds_setup` (blinds and antes from a button position).
* :mod:`.events` - entries (``HandStarted``, ``HoleCardsDealt``, ``BoardDealt``,
  ``ActionTaken``, ``ChipsPlaced``, ``HandShown``, ...) and outcomes (``BlindPosted``,
  ``BetPlaced``, ``PotAwarded``, ...), :func:`event_to_dict` / :func:`event_from_dict`.
* :mod:`.hand` - :func:`start_hand`, :func:`apply`, :func:`apply_events`,
  :func:`apply_in_place`, :func:`replay`, and :class:`Hand` (the log with undo).
* :mod:`.state` - :class:`HandState` (read it; ``to_dict()`` is the JSON snapshot).
* :mod:`.legal` - :func:`legal_actions` for the seat to act.
* :mod:`.showdown` - :func:`show_order`, :func:`next_to_show`.
* :mod:`.table` - the table across hands: :func:`new_table`, :func:`next_hand`,
  :func:`finish_hand`, :func:`seat_player`, :func:`set_away`, :func:`set_level`.
* :mod:`.chips` - what pushed chips mean (declarations, oversized chips, under-raises).
* :mod:`.observations` - the input vocabulary (``KillHand`` rules a hand dead, POT-DEAD-HAND).
* :mod:`.validate` - the one check of whole numbers, numbers and true/false for every reader.
"""
