"""The live runtime: engine thread, bounded queue, journal, publisher, device wiring, export."""
