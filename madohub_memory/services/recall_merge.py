"""Recall over several stores (setting ``stores.map``): each store answers for its part of
the scope, and :func:`~madohub_memory.services.recall.merge_signals` ranks the union as if
one store held it all.

Imported only when a map is set: a recall without one pays nothing for this. A mapped store
that cannot be opened, or fails while it is read, leaves the answer to the others with one
warning; the local store failing is an error as it always was.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from madohub_memory.core.locations import display_location

if TYPE_CHECKING:
    from madohub_memory.services import Services
    from madohub_memory.services.recall import Signals

log = logging.getLogger("madohub_memory.recall")


def gather_stores(
    svc: Services, text: str, scope: list[str] | None, mode: str, limits: tuple[int, int, int],
    model: str | None = None,
) -> tuple[list[Signals], list[str]]:
    """Every store's candidates for ``text`` within its part of ``scope``, and a warning
    sentence for each mapped store that could not answer. Every store ranks with ``model``
    (the local store's), so no ranking mixes two models' cosines."""
    parts, warnings = svc.stores.read_parts(scope)
    signals: list[Signals] = []
    for part in parts:
        if part.svc is svc:
            signals.append(svc.recall.gather(text, part.scope, mode, limits, part.label, model))
            continue
        try:
            signals.append(part.svc.recall.gather(text, part.scope, mode, limits, part.label, model))
        except Exception as exc:  # a server gone mid-read: answer from the others
            log.debug("store %s failed during recall", part.label, exc_info=True)
            reason = display_location(str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__)
            warnings.append(f"The store {part.label} could not be read ({reason}); answering without "
                            f"{', '.join(part.scope or [])}.")
    return signals, warnings
