"""Choosing the extractor from plain setting values (``extraction.backend`` and friends).

Front ends and workers never construct an extractor themselves: they ask the services
layer (:mod:`madohub_memory.services.extraction_backend`), which reads the settings and
passes their values here, so a change of the setting in the dashboard reaches every path.
Extractors get values, never the ``Services`` object.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import Any

from madohub_memory.extraction.base import Extractor
from madohub_memory.extraction.limits import Budget, RetryPolicy

BACKEND_KEYS = (
    "extraction.backend", "extraction.llm.base_url", "extraction.llm.model", "extraction.llm.api_key_env",
    "extraction.llm.timeout", "extraction.llm.retries", "extraction.claude.executable",
    "extraction.claude.model", "persona",
)


def build_extractor(
    values: Mapping[str, Any], budget: Budget | None = None, environ: Mapping[str, str] | None = None,
) -> Extractor:
    """The extractor that ``values["extraction.backend"]`` selects (``offline`` when absent).

    The model backends get the offline extractor as their fallback for replies they
    cannot read, the shared ``budget``, and the retry count and timeout from ``values``.
    """
    from madohub_memory.extraction.offline import OfflineExtractor

    backend = values.get("extraction.backend", "offline")
    offline = OfflineExtractor(persona=str(values.get("persona") or "default"))
    if backend not in ("llm", "claude-code"):
        return offline
    options: dict[str, Any] = {
        "budget": budget, "fallback": offline, "persona": values.get("persona"),
        "retry": RetryPolicy(retries=int(values.get("extraction.llm.retries", 2))),
    }
    timeout = float(values.get("extraction.llm.timeout", 120))
    if backend == "claude-code":
        from madohub_memory.extraction.claude_cli import ClaudeCodeExtractor

        return ClaudeCodeExtractor(
            executable=str(values.get("extraction.claude.executable") or "claude"),
            model=str(values.get("extraction.claude.model") or ""), timeout=timeout, **options,
        )
    from madohub_memory.extraction.llm import LLMExtractor

    env = os.environ if environ is None else environ
    key_env = values.get("extraction.llm.api_key_env")
    return LLMExtractor(
        base_url=str(values.get("extraction.llm.base_url") or "http://127.0.0.1:11434/v1"),
        model=str(values.get("extraction.llm.model") or ""),
        api_key=env.get(key_env) if key_env else None, timeout=timeout, **options,
    )
