"""dealer-pi: a dealer assistant for live Texas Hold'em tables."""

__version__ = "0.1.0"
