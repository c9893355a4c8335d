"""The simulated table: seeded hands with faults on request (tests, benchmarks, demo)."""

from .faults import Fault, expected_alert
from .table import Injection, SimTable, Simulator

__all__ = ["Fault", "Injection", "SimTable", "Simulator", "expected_alert"]
