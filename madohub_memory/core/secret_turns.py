"""Secrets that only the conversation shows: the answer to "What is the password?".

A turn on its own ("Quartz39&DGxY", "it's Falcon20*duUq") can be a secret that nothing
in it announces: the turn before asked for it. And a value masked in one turn ("my
password is …") can come back bare in the next ("Noted: …"). The store masks the turns of a
conversation together (``store/redaction.redact_turns``, from every ingest), with these.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from madohub_memory.core.secret_context import follow_up_spans
from madohub_memory.core.secrets import MASK, apply_mask, mask_secrets, plausible_secret, secret_spans


def _plausible(value: str) -> bool:
    return MASK not in value and plausible_secret(value, strict=True)


def mask_after(previous: str | None, text: str) -> tuple[str, bool]:
    """``text`` masked as :func:`mask_secrets` does, and also the value it gives when
    ``previous`` (the turn before it) asked for or announced a secret ("What is the Redis
    password?" then "it's Falcon20*duUq")."""
    masked, found = mask_secrets(text)
    if not previous:
        return masked, found
    spans = follow_up_spans(previous, masked, _plausible)
    if not spans:
        return masked, found
    start, end = spans[0]
    return masked[:start] + MASK + masked[end:], True


def mask_turns(texts: Sequence[str], previous: str | None = None,
               clean: Callable[[str], bool] | None = None) -> list[str]:
    """The turns of one conversation masked in order (``previous``: the turn before the
    first, when there is one): each as :func:`mask_after` the turn before it, and a secret
    value found in one turn is masked wherever it comes back later ("Noted: <it>").

    ``clean(text)``: the text was masked already (a 5 MB pasted log is scanned once, not
    again by every pass that writes it)."""
    out: list[str] = []
    known: list[str] = []
    for text in texts:
        if clean is not None and clean(text):
            masked, values = text, []
        else:
            spans = secret_spans(text)  # scanned once: the values, and the text masked from them
            values = [text[a:b] for a, b in spans if b - a >= 8]
            masked = apply_mask(text, spans)
        if previous and len(masked) <= 2000:
            follow = follow_up_spans(previous, masked, _plausible)
            values += [masked[a:b] for a, b in follow]
        for value in known:
            masked = masked.replace(value, MASK)
        for value in values:
            masked = masked.replace(value, MASK)
        known += [v for v in values if MASK not in v and v not in known]
        out.append(masked)
        previous = masked
    return out
