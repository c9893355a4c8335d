"""The card-room floor: tables meet on an MQTT broker (Mosquitto), the floor process runs the room.

* :mod:`.settings` - the broker address and the ``[floor]`` keys, checked.
* :mod:`.topics` - topic names and message checks (every message received is checked).
* :mod:`.mqtt` - a paho client set up from the settings (TLS, user, last will).
* :mod:`.table_side` - what the floor means to one table: orders applied between hands,
  hand-for-hand, the deck-change prompt (the runtime's hooks, journaled).
* :mod:`.link` - the table's connection: publishes from the journal, takes the floor's orders.
* :mod:`.store`, :mod:`.room`, :mod:`.director`, :mod:`.service`, :mod:`.web` - the floor process.
* :mod:`.broker` - a private Mosquitto on a free loopback port (tests, demo, benchmarks).

The rules themselves are in :mod:`dealer_pi.engine.tournament`.
"""
