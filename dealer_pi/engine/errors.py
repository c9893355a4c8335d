"""Errors raised by the engine.

Every rejection names the rule it enforces (an ID from RULES.md) so that the
dealer, the logs and the tests all speak of the same thing.
"""

from __future__ import annotations


class EngineError(Exception):
    """Base class of everything the engine raises on purpose."""


class InputError(EngineError, ValueError):
    """Malformed input: a card, a field or a document that cannot be read.

    ``where`` says which field or position was wrong (``"observations[3].card"``).
    """

    def __init__(self, where: str, message: str) -> None:
        self.where = where
        self.message = message
        super().__init__(f"{where}: {message}" if where else message)


class RuleViolation(EngineError):
    """Well-formed input that the rules forbid; the state is left unchanged."""

    def __init__(self, rule: str, message: str) -> None:
        self.rule = rule
        self.message = message
        super().__init__(f"[{rule}] {message}")
