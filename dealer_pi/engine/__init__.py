"""The rules engine: pure, synchronous, deterministic.

Nothing here does I/O, starts threads, reads a clock or imports from the rest
of the package: the same inputs always give the same state and events.
"""
