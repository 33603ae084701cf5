"""Safety flags on candidate text: ``secret`` (masked), ``pii`` and ``instruction``.

A flagged candidate is shown with a warning in the dashboard and is never auto-approved.

- ``secret``: the text held a secret; it is masked before anything is stored
  (:mod:`madohub_memory.core.secrets`, applied again at every write in ``store``).
- ``pii``: personal data (:mod:`madohub_memory.core.pii`): e-mail addresses, phone numbers,
  ID numbers, card numbers, IBANs. Flagged, not masked (see the policy there).
- ``instruction``: text that tries to steer the agent or the reviewer
  (:mod:`madohub_memory.extraction.instructions`).

Recall and false-positive rates: ``bench/safety.py --json``; the flag rate on real
transcripts: ``bench/extraction_quality.py`` section ``flags``.
"""

from __future__ import annotations

import functools

from madohub_memory.core.pii import has_pii
from madohub_memory.core.secret_tokens import card_spans
from madohub_memory.core.secrets import MASK, mask_secrets
from madohub_memory.core.text import clean_text
from madohub_memory.extraction.instructions import is_instruction

__all__ = ["MASK", "mask_secrets", "scan"]


def scan(text: str) -> tuple[str, tuple[str, ...]]:
    """Return the text with secrets masked (and invisible characters removed), and its flags."""
    if len(text) <= _CACHED_CHARS:
        return _scan_cached(text)
    return _scan(text)


# A candidate's text is scanned when it is extracted, validated before its embedding, and
# validated again when it is submitted: a pure function, so recent answers are kept.
_CACHED_CHARS = 2048


@functools.lru_cache(maxsize=4096)
def _scan_cached(text: str) -> tuple[str, tuple[str, ...]]:
    return _scan(text)


def _scan(text: str) -> tuple[str, tuple[str, ...]]:
    cleaned = clean_text(text) if text else text
    masked, has_secret = mask_secrets(cleaned)
    flags: list[str] = []
    if has_secret or MASK in cleaned:  # masked already (a stored turn is): it held a secret all the same
        flags.append("secret")
    # a card number is masked as a secret and is personal data too
    if has_pii(masked) or card_spans(cleaned):
        flags.append("pii")
    if is_instruction(masked):
        flags.append("instruction")
    return masked, tuple(flags)
