"""The simulated table: seeded hands with faults on request (tests, benchmarks, demo)."""

from .faults import Fault, expected_alert
from .table import UNDONE, Injection, OffScript, SimTable, Simulator

__all__ = ["UNDONE", "Fault", "Injection", "OffScript", "SimTable", "Simulator", "expected_alert"]
