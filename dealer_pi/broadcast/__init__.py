"""What a live stream shows beyond the table itself: equities, the action ticker, player stats.

``equity`` and ``handeval`` are pure (cards in, numbers out; typed, ``mypy --strict``);
the rest reads the journal or the runtime's batches.
"""
