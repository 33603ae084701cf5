"""Extractors that turn conversation turns into memory candidates, and the safety flags."""
