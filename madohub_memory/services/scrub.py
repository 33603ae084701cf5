"""``scrub``: mask secrets that an older version of the program stored, everywhere.

New text is masked as it is written; this is for a database written before a secret's
format was known to the scanner (run it after an upgrade, or when a leak is suspected).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from madohub_memory.store import scrub as scrub_rows

if TYPE_CHECKING:
    from madohub_memory.services import Services


def scrub_secrets(svc: Services, *, compact: bool = True) -> dict[str, int]:
    """Re-mask every stored free-text field; with ``compact`` also rewrite the file so no
    freed page keeps the old text. Returns the rows changed per table."""
    changed = scrub_rows.scrub(svc.store)
    if compact:
        scrub_rows.compact(svc.store)
    return changed
