"""The extraction backend as the user configured it: building it, its daily budget, and
where transcripts go.

Why here: the extractors take plain values (:func:`extraction.registry.build_extractor`),
the budget lives in the database (:mod:`store.llm_usage`) so that the worker, the hook,
the CLI and the dashboard share one count, and the dashboard must say plainly where a
transcript is sent before the user switches a backend on.
"""

from __future__ import annotations

import ipaddress
import logging
import os
from datetime import timedelta
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

from madohub_memory.core.clock import parse_iso, to_iso
from madohub_memory.extraction.base import Extractor
from madohub_memory.extraction.limits import ExtractionPostponed
from madohub_memory.extraction.registry import BACKEND_KEYS, build_extractor
from madohub_memory.store import llm_usage

if TYPE_CHECKING:
    from madohub_memory.services import Services

log = logging.getLogger(__name__)


class StoreBudget:
    """The daily budget of model calls and tokens, counted in the database.

    The limits are read from the settings at every call, so raising them in the dashboard
    lets a postponed extraction continue without a restart. The day is the local calendar
    day of the service clock.
    """

    def __init__(self, svc: Services) -> None:
        self.svc = svc

    def _day(self) -> str:
        return self.svc.clock.now().astimezone().date().isoformat()

    def before_call(self, estimated_tokens: int) -> None:
        now = self.svc.clock.now()
        usage = llm_usage.today(self.svc.store, self._day())
        if usage["paused_until"] and parse_iso(usage["paused_until"]) > now:
            local = parse_iso(usage["paused_until"]).astimezone().strftime("%H:%M")
            raise ExtractionPostponed(
                "Model extraction is paused until {local} ({reason}).",
                local=local, reason=usage['pause_reason'] or 'rate limit',
            )
        max_calls = int(self.svc.settings.get("extraction.llm.daily_calls"))
        max_tokens = int(self.svc.settings.get("extraction.llm.daily_tokens"))
        allowed, usage = llm_usage.take_call(self.svc.store, self._day(), max_calls, max_tokens,
                                             estimated_tokens, to_iso(now))
        if not allowed:
            raise ExtractionPostponed(
                "Today's model extraction budget is used up ({calls} of {max_calls} calls, {tokens:,} of {max_tokens} "
                "tokens); the turns stay pending until tomorrow or until you raise "
                "extraction.llm.daily_calls / extraction.llm.daily_tokens.",
                calls=usage['calls'], max_calls=max_calls or 'unlimited',
                tokens=usage['tokens'], max_tokens=max_tokens or 'unlimited',
            )

    def after_call(self, tokens: int) -> None:
        llm_usage.add_tokens(self.svc.store, self._day(), tokens, self.svc.clock.now_iso())

    def pause_for(self, seconds: float, reason: str) -> None:
        until = to_iso(self.svc.clock.now() + timedelta(seconds=seconds))
        llm_usage.pause(self.svc.store, self._day(), until, reason[:200], self.svc.clock.now_iso())


def backend_values(svc: Services) -> dict[str, Any]:
    return {key: svc.settings.get(key) for key in BACKEND_KEYS}


def build(svc: Services) -> Extractor:
    """The extractor the settings select, with the shared budget."""
    return build_extractor(backend_values(svc), budget=StoreBudget(svc))


def usage_today(svc: Services) -> dict[str, Any]:
    """Today's calls and tokens against the limits, and a pause if one is set."""
    day = svc.clock.now().astimezone().date().isoformat()
    usage = llm_usage.today(svc.store, day)
    if usage["paused_until"] and parse_iso(usage["paused_until"]) <= svc.clock.now():
        usage["paused_until"] = usage["pause_reason"] = None
    usage["daily_calls"] = svc.settings.get("extraction.llm.daily_calls")
    usage["daily_tokens"] = svc.settings.get("extraction.llm.daily_tokens")
    return usage


def _is_local(host: str) -> bool:
    name = host.strip("[]").lower()
    if name in ("localhost", "localhost.localdomain") or name.endswith(".localhost"):
        return True
    try:
        address = ipaddress.ip_address(name)
    except ValueError:
        return False
    return address.is_loopback


def destination(values: dict[str, Any]) -> dict[str, Any]:
    """Where transcripts go with these settings: ``{"backend", "target", "leaves_machine"}``.

    ``target`` is the endpoint host, ``Claude Code on this machine`` or ``nowhere``; a
    private-network host (a LAN server) counts as leaving this machine.
    """
    backend = values.get("extraction.backend", "offline")
    if backend == "llm":
        host = urlsplit(str(values.get("extraction.llm.base_url") or "")).hostname or ""
        port = urlsplit(str(values.get("extraction.llm.base_url") or "")).port
        target = f"{host}:{port}" if port else host
        return {"backend": backend, "target": target, "leaves_machine": not _is_local(host)}
    if backend == "claude-code":
        program = str(values.get("extraction.claude.executable") or "claude")
        return {"backend": backend, "target": "Claude Code on this machine", "program": os.path.expanduser(program),
                "leaves_machine": True}  # claude -p sends the prompt to Anthropic with the user's login
    return {"backend": "offline", "target": "nowhere", "leaves_machine": False}
