"""Choosing the extractor from the ``extraction.backend`` setting.

Front ends and workers never construct an extractor themselves: they ask
:func:`build_extractor`, so a change of the setting in the dashboard reaches every path.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from madohub_memory.extraction.base import Extractor

if TYPE_CHECKING:
    from madohub_memory.services import Services


def build_extractor(svc: Services) -> Extractor:
    """The extractor selected by ``extraction.backend`` (``offline`` by default, or ``llm``)."""
    backend = svc.settings.get("extraction.backend")
    if backend == "llm":
        from madohub_memory.extraction.llm import LLMExtractor

        return LLMExtractor.from_settings(svc)
    from madohub_memory.extraction.offline import OfflineExtractor

    return OfflineExtractor(persona=svc.settings.get("persona"))
