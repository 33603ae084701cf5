"""Domain layer: vocabularies, types, errors, clock and text helpers. Pure Python, no Qt, no I/O."""
